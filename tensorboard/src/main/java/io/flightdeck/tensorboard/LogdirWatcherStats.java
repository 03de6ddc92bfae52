package io.flightdeck.tensorboard;

/**
 * Counters of a {@link LogdirWatcher} since it was created, for self-metrics.
 *
 * @param runs runs found so far
 * @param files event files found so far
 * @param records records decoded (damaged ones not counted)
 * @param points scalar, histogram, text, image and hparams points written
 * @param skipped points read but not stored: graphs, unsupported plugins
 * @param errors damaged records, file failures (each counted once until the file reads again) and
 *     samples the storage refused
 * @param lastPollMillis when the last poll ended, by the watcher's clock; 0 before the first
 */
public record LogdirWatcherStats(
    long runs,
    long files,
    long records,
    long points,
    long skipped,
    long errors,
    long lastPollMillis) {}
