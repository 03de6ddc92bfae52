package io.flightdeck.training;

import java.time.Duration;
import java.util.Objects;

/**
 * How the catalog finds runs and judges them.
 *
 * @param runLabel the label whose value names a run ({@code run}; e.g. {@code exp_id})
 * @param lookback how far back runs are listed (30 days: TensorBoard logdirs imported after the
 *     fact keep their own wall times)
 * @param rateWindow how far back the step rate is measured (at least the last few step changes are
 *     used even when they are older)
 * @param silence a run whose training series have been silent for this many of their usual sample
 *     intervals is crashed (unless finished)
 * @param silenceFloor the shortest silence that counts as a crash
 * @param stallFactor a run whose step has not moved for this many usual step-change intervals is
 *     stalled
 * @param stallFloor the shortest pause that counts as a stall
 * @param detectionWindow how far back the background detection loop reads each running run ({@link
 *     DetectionLoop})
 */
public record RunCatalogOptions(
    String runLabel,
    Duration lookback,
    Duration rateWindow,
    int silence,
    Duration silenceFloor,
    int stallFactor,
    Duration stallFloor,
    Duration detectionWindow) {
  public static final RunCatalogOptions DEFAULT =
      new RunCatalogOptions(
          "run",
          Duration.ofDays(30),
          Duration.ofMinutes(10),
          10,
          Duration.ofMinutes(5),
          5,
          Duration.ofMinutes(2),
          Duration.ofHours(1));

  public RunCatalogOptions {
    Objects.requireNonNull(runLabel, "runLabel");
    if (runLabel.isEmpty()) {
      throw new IllegalArgumentException("the run label must not be empty");
    }
    if (silence < 1 || stallFactor < 1) {
      throw new IllegalArgumentException("silence and stallFactor must be at least 1");
    }
    if (detectionWindow.toMillis() < 1000) {
      throw new IllegalArgumentException(
          "the detection window must be at least 1s, got " + detectionWindow);
    }
  }

  public RunCatalogOptions withRunLabel(String label) {
    return new RunCatalogOptions(
        label,
        lookback,
        rateWindow,
        silence,
        silenceFloor,
        stallFactor,
        stallFloor,
        detectionWindow);
  }

  /**
   * A shorter floor for stalls (and so for hung ranks), for data on a compressed clock such as the
   * demo's: its 2-minute floor divided by the speed.
   */
  public RunCatalogOptions withStallFloor(Duration value) {
    return new RunCatalogOptions(
        runLabel, lookback, rateWindow, silence, silenceFloor, stallFactor, value, detectionWindow);
  }

  /** A shorter or longer floor for crashes (silence), e.g. for the demo's compressed clock. */
  public RunCatalogOptions withSilenceFloor(Duration value) {
    return new RunCatalogOptions(
        runLabel, lookback, rateWindow, silence, value, stallFactor, stallFloor, detectionWindow);
  }

  public RunCatalogOptions withLookback(Duration value) {
    return new RunCatalogOptions(
        runLabel,
        value,
        rateWindow,
        silence,
        silenceFloor,
        stallFactor,
        stallFloor,
        detectionWindow);
  }

  /** A longer or shorter window for a run's pace, e.g. divided by the demo's speed. */
  public RunCatalogOptions withRateWindow(Duration value) {
    return new RunCatalogOptions(
        runLabel, lookback, value, silence, silenceFloor, stallFactor, stallFloor, detectionWindow);
  }

  /** A longer or shorter window for the detection loop, e.g. divided by the demo's speed. */
  public RunCatalogOptions withDetectionWindow(Duration value) {
    return new RunCatalogOptions(
        runLabel, lookback, rateWindow, silence, silenceFloor, stallFactor, stallFloor, value);
  }
}
