package io.flightdeck.training;

import java.util.List;

/**
 * One run as the runs table shows it. Times are Unix milliseconds; absent values are null.
 *
 * @param stepsPerSecond the median of the per-interval step rates over the rate window
 * @param etaSeconds remaining steps at the median rate; 0 when finished; null when the total is
 *     unknown or the run is not running
 * @param etaLowSeconds remaining steps at the 90th percentile rate (the optimistic end)
 * @param etaHighSeconds remaining steps at the 10th percentile rate (the pessimistic end)
 * @param lossMetric a PromQL selector of this run's loss, for sparklines; null when none
 * @param stepMetric a PromQL selector of this run's step; null when none
 * @param sources where the run's series come from: {@code scrape} (series with an {@code
 *     instance}), {@code push} (others), {@code tensorboard}
 */
public record RunSummary(
    String run,
    RunStatus status,
    long firstSeenMs,
    long lastSeenMs,
    Double step,
    Double maxSteps,
    Double epoch,
    Double stepsPerSecond,
    Double etaSeconds,
    Double etaLowSeconds,
    Double etaHighSeconds,
    Double lastLoss,
    Double lastSamplesPerSecond,
    Double lastLearningRate,
    String lossMetric,
    String stepMetric,
    List<RunGpu> gpus,
    List<String> hosts,
    List<RunAlert> alerts,
    List<String> sources) {}
