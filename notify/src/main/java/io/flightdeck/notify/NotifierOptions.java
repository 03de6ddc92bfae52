package io.flightdeck.notify;

import io.flightdeck.model.Clock;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Options of a {@link Notifier}.
 *
 * @param externalUrl Flightdeck's external URL, linked from messages; may be empty
 * @param dataDir where the notification log is kept across restarts; null keeps it in memory
 * @param timeout per HTTP request to a receiver
 * @param initialBackoff wait before retrying a receiver that failed, doubled per further failure
 * @param maxBackoff longest wait between retries
 * @param tickInterval how often the dispatcher thread looks for due work
 * @param history where each delivery is recorded, for the cockpit's notification log
 */
public record NotifierOptions(
    NotificationsConfig config,
    String externalUrl,
    Path dataDir,
    Clock clock,
    HttpClient httpClient,
    Duration timeout,
    Duration initialBackoff,
    Duration maxBackoff,
    Duration tickInterval,
    DeliveryHistory history) {
  /** Log entries older than this are forgotten, as Alertmanager's default retention. */
  static final Duration LOG_RETENTION = Duration.ofHours(120);

  public NotifierOptions {
    Objects.requireNonNull(config, "config");
    externalUrl = externalUrl == null ? "" : externalUrl.replaceAll("/+$", "");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(httpClient, "httpClient");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    Objects.requireNonNull(tickInterval, "tickInterval");
    Objects.requireNonNull(history, "history");
  }

  public static NotifierOptions defaults(
      NotificationsConfig config, String externalUrl, Path dataDir) {
    return new NotifierOptions(
        config,
        externalUrl,
        dataDir,
        Clock.system(),
        HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build(),
        Duration.ofSeconds(10),
        Duration.ofSeconds(1),
        Duration.ofMinutes(1),
        Duration.ofSeconds(1),
        new DeliveryHistory(DeliveryHistory.DEFAULT_CAPACITY));
  }

  public NotifierOptions withClock(Clock newClock) {
    return new NotifierOptions(
        config,
        externalUrl,
        dataDir,
        newClock,
        httpClient,
        timeout,
        initialBackoff,
        maxBackoff,
        tickInterval,
        history);
  }

  public NotifierOptions withBackoff(Duration initial, Duration max) {
    return new NotifierOptions(
        config,
        externalUrl,
        dataDir,
        clock,
        httpClient,
        timeout,
        initial,
        max,
        tickInterval,
        history);
  }

  /** Records deliveries in {@code shared}, which outlives this notifier (a reload replaces it). */
  public NotifierOptions withHistory(DeliveryHistory shared) {
    return new NotifierOptions(
        config,
        externalUrl,
        dataDir,
        clock,
        httpClient,
        timeout,
        initialBackoff,
        maxBackoff,
        tickInterval,
        shared);
  }
}
