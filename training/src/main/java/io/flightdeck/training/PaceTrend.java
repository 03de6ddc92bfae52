package io.flightdeck.training;

/**
 * How steady a run's pace is over the rate window: whether it drifts, its level now, and how
 * precisely the window knows its mean.
 *
 * <p>The window's intervals between step changes are grouped into equal time blocks (each long
 * enough for a few step changes) and a least-squares line is drawn through the blocks' paces (steps
 * over time, pauses left out as in {@link StepProgress}). The pace is drifting when the slope is
 * significant (a two-sided Student t test at 95%) and moves the pace by at least {@link
 * #MIN_CHANGE} over the window: the rate of a drifting pace over the window lags by half a window,
 * the line's value at its end does not. Leaving pauses out keeps one long interval (a short stall,
 * a checkpoint save) from reading as a drift.
 *
 * @param level the line's pace at the window's end, steps/s
 * @param slope its change per second, steps/s²
 * @param spanSeconds the window's length
 * @param mean the mean of the blocks' paces
 * @param meanError the standard error of that mean (the blocks' spread ÷ √blocks)
 * @param drifting whether the slope is significant and large enough to act on
 */
record PaceTrend(
    double level,
    double slope,
    double spanSeconds,
    double mean,
    double meanError,
    boolean drifting) {
  /** The fewest blocks a trend is fitted to. */
  static final int MIN_BLOCKS = 5;

  static final int MAX_BLOCKS = 10;

  /** A block spans at least this many usual step-change intervals. */
  static final int CHANGES_PER_BLOCK = 2;

  /** A drift smaller than this share of the pace over the window is not acted on. */
  static final double MIN_CHANGE = 0.05;

  /** Two-sided 95% Student t quantiles for 3 to 8 degrees of freedom (blocks − 2). */
  private static final double[] T95 = {3.182, 2.776, 2.571, 2.447, 2.365, 2.306};

  /** The pace if the drift goes on for one more window (never below half the level). */
  double onceMore() {
    return Math.max(level / 2, level + slope * spanSeconds);
  }

  /**
   * The fit of rates measured over intervals ending at {@code ends} (ms) and lasting {@code
   * seconds}, in a window from {@code fromMs} to {@code toMs}; null when the window holds too few
   * step changes to tell.
   */
  static PaceTrend of(
      double[] rates, double[] seconds, long[] ends, long fromMs, long toMs, long medianGapMs) {
    double span = (toMs - fromMs) / 1000.0;
    if (medianGapMs <= 0 || span <= 0) {
      return null;
    }
    int blocks = (int) Math.min(MAX_BLOCKS, span * 1000 / (CHANGES_PER_BLOCK * medianGapMs));
    if (blocks < MIN_BLOCKS) {
      return null;
    }
    double width = span / blocks;
    double[] mids = new double[blocks];
    double[] advanced = new double[blocks];
    double[] taken = new double[blocks];
    for (int i = 0; i < rates.length; i++) {
      if (seconds[i] * 1000 > StepProgress.PAUSE_FACTOR * medianGapMs) {
        continue;
      }
      double mid = (ends[i] - fromMs) / 1000.0 - seconds[i] / 2;
      int b = (int) Math.min(blocks - 1, Math.max(0, Math.floor(mid / width)));
      advanced[b] += rates[i] * seconds[i];
      taken[b] += seconds[i];
    }
    double[] paces = new double[blocks];
    int filled = 0;
    for (int b = 0; b < blocks; b++) {
      if (taken[b] > 0) {
        mids[filled] = (b + 0.5) * width;
        paces[filled] = advanced[b] / taken[b];
        filled++;
      }
    }
    if (filled < MIN_BLOCKS) {
      return null;
    }
    double meanX = 0;
    double meanY = 0;
    for (int i = 0; i < filled; i++) {
      meanX += mids[i] / filled;
      meanY += paces[i] / filled;
    }
    double sxx = 0;
    double sxy = 0;
    for (int i = 0; i < filled; i++) {
      sxx += (mids[i] - meanX) * (mids[i] - meanX);
      sxy += (mids[i] - meanX) * (paces[i] - meanY);
    }
    double slope = sxy / sxx;
    double residuals = 0;
    double lagged = 0;
    double spread = 0;
    double previous = Double.NaN;
    for (int i = 0; i < filled; i++) {
      double r = paces[i] - (meanY + slope * (mids[i] - meanX));
      residuals += r * r;
      lagged += Double.isNaN(previous) ? 0 : r * previous;
      previous = r;
      spread += (paces[i] - meanY) * (paces[i] - meanY);
    }
    // Neighbouring blocks share slow noise (a pace that wanders by the minute), which makes a
    // plain t test see drifts in noise: the slope's error is widened by the residuals' lag-1
    // autocorrelation, as for an AR(1) noise's effective sample size.
    double autocorrelation = residuals == 0 ? 0 : Math.max(0, Math.min(0.9, lagged / residuals));
    double slopeError =
        Math.sqrt(residuals / (filled - 2) / sxx * (1 + autocorrelation) / (1 - autocorrelation));
    double t = T95[Math.min(T95.length, filled - 2 - 2) - 1];
    double level = meanY + slope * (span - meanX);
    boolean significant = slopeError == 0 ? slope != 0 : Math.abs(slope) / slopeError > t;
    boolean drifting = significant && level > 0 && Math.abs(slope) * span >= MIN_CHANGE * meanY;
    double meanError = Math.sqrt(spread / (filled - 1) / filled);
    return new PaceTrend(level, slope, span, meanY, meanError, drifting);
  }
}
