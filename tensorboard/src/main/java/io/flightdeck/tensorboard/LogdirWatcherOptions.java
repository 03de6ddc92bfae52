package io.flightdeck.tensorboard;

import java.time.Duration;

/**
 * Options of a {@link LogdirWatcher}.
 *
 * @param logdir the logdir as the user gave it; it names the {@code logdir} label and the text
 *     store, so keep it the same across restarts
 * @param pollInterval time from the start of one poll to the start of the next
 * @param batchSize samples per storage commit; every poll also commits at its end
 */
public record LogdirWatcherOptions(String logdir, Duration pollInterval, int batchSize) {
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);
  public static final int DEFAULT_BATCH_SIZE = 10_000;

  public LogdirWatcherOptions {
    if (logdir == null || logdir.isEmpty()) {
      throw new IllegalArgumentException("logdir must not be empty");
    }
    if (pollInterval.isNegative() || pollInterval.isZero()) {
      throw new IllegalArgumentException("pollInterval must be positive, got " + pollInterval);
    }
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be positive, got " + batchSize);
    }
  }

  public static LogdirWatcherOptions defaults(String logdir) {
    return new LogdirWatcherOptions(logdir, DEFAULT_POLL_INTERVAL, DEFAULT_BATCH_SIZE);
  }

  public LogdirWatcherOptions withPollInterval(Duration interval) {
    return new LogdirWatcherOptions(logdir, interval, batchSize);
  }
}
