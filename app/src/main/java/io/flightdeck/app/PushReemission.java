package io.flightdeck.app;

import io.flightdeck.config.Config;
import io.flightdeck.remote.PushReceiver;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-emits the pushed groups at a fixed interval, as Prometheus scraping a Pushgateway would, so
 * that pushed values stay visible until replaced or deleted. The first run is at start, which
 * resumes the groups kept across a restart at once.
 */
final class PushReemission implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PushReemission.class);

  /** Without a configuration file, as often as Prometheus's usual scrape interval. */
  static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(15);

  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

  private final PushReceiver receiver;
  private final ScheduledExecutorService timer;
  private Duration interval;
  private ScheduledFuture<?> schedule;

  PushReemission(PushReceiver receiver, Duration interval) {
    this.receiver = receiver;
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "push-reemission"));
    reschedule(interval, 0);
  }

  /** Follows a reloaded configuration's scrape interval; the next run comes one interval on. */
  synchronized void apply(Config config) {
    Duration next = interval(config);
    if (!next.equals(interval)) {
      schedule.cancel(false);
      reschedule(next, next.toMillis());
    }
  }

  private synchronized void reschedule(Duration every, long delayMillis) {
    interval = every;
    schedule =
        timer.scheduleAtFixedRate(
            this::reemit, delayMillis, every.toMillis(), TimeUnit.MILLISECONDS);
    log.info("re-emitting pushed groups every {}", every);
  }

  /** The configuration's global scrape interval, or the default without a configuration file. */
  static Duration interval(Config config) {
    return config == null ? DEFAULT_INTERVAL : config.global().scrapeInterval();
  }

  private void reemit() {
    try {
      receiver.reemit();
    } catch (RuntimeException e) {
      // A thrown task would cancel every later run.
      log.error("re-emitting pushed groups failed: {}", e.toString());
    }
  }

  /** Stops after the run in progress; no interrupt, which would close storage's file channels. */
  @Override
  public void close() {
    timer.shutdown();
    try {
      if (!timer.awaitTermination(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        log.warn("re-emission of pushed groups did not stop within {}", CLOSE_TIMEOUT);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
