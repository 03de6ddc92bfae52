package io.flightdeck.training;

/**
 * A running run's ETA and its p10–p90 band, from the pace of its current segment ({@link
 * StepProgress}) and its history since the step first moved ({@link LostTime}).
 *
 * <p>The pace assumed for the rest of the run:
 *
 * <ul>
 *   <li>a drifting pace ({@link PaceTrend}): its level now, since the past no longer describes it;
 *   <li>otherwise the productive pace since the start (net steps over the time not lost) when the
 *       window's pace is consistent with it (within two standard errors of the window's mean; with
 *       too few step changes for that, within the window's p10–p90 rates): the long measure
 *       averages out more of the noise than ten minutes do, and is not biased by how steps fall
 *       between scrapes;
 *   <li>otherwise (the pace moved to a new level) the window's rate.
 * </ul>
 *
 * Then the time lost so far (stalls, time away in restarts, steps redone) stretches the ETA and its
 * band as if the losses go on at the share seen so far.
 *
 * @param pace the pace assumed, steps/s
 */
record EtaEstimate(double pace, double etaSeconds, double lowSeconds, double highSeconds) {
  /** Null when no pace is known. */
  static EtaEstimate of(
      StepProgress progress, LostTime lost, double step, double remaining, double maxFactor) {
    Double recent = progress.pace();
    if (recent == null || recent <= 0) {
      return null;
    }
    double pace = recent;
    Double longRun = lost.productivePace(step);
    if (!progress.drifting() && longRun != null && consistent(progress, longRun)) {
      pace = longRun;
    }
    double factor = lost.factor(maxFactor);
    double fast = Math.max(pace, progress.fastRate());
    double slow = Math.min(pace, progress.slowRate()); // positive: rates are between changes
    return new EtaEstimate(
        pace, remaining / pace * factor, remaining / fast * factor, remaining / slow * factor);
  }

  /** Whether the window's pace shows no departure from {@code longRun}. */
  private static boolean consistent(StepProgress progress, double longRun) {
    PaceTrend fit = progress.trend();
    if (fit == null) {
      return longRun >= progress.p10Rate() && longRun <= progress.p90Rate();
    }
    return Math.abs(longRun - fit.mean()) <= 2 * fit.meanError();
  }
}
