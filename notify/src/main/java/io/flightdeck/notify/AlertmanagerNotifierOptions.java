package io.flightdeck.notify;

import io.flightdeck.config.AlertingConfig;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Objects;

/**
 * Options of an {@link AlertmanagerNotifier}.
 *
 * @param queueCapacity alerts held while Alertmanagers are slow; the oldest are dropped beyond it
 *     (Prometheus's {@code --alertmanager.notification-queue-capacity}, default 10000)
 * @param maxBatchSize alerts per POST (Prometheus uses 64)
 * @param maxAttempts tries per Alertmanager and batch before the batch counts as an error there
 * @param retryBackoff wait before the second try, doubled for each further one
 */
public record AlertmanagerNotifierOptions(
    AlertingConfig alerting,
    int queueCapacity,
    int maxBatchSize,
    int maxAttempts,
    Duration retryBackoff,
    HttpClient httpClient) {
  public AlertmanagerNotifierOptions {
    Objects.requireNonNull(alerting, "alerting");
    Objects.requireNonNull(retryBackoff, "retryBackoff");
    Objects.requireNonNull(httpClient, "httpClient");
    if (queueCapacity < 1 || maxBatchSize < 1 || maxAttempts < 1) {
      throw new IllegalArgumentException(
          "queueCapacity, maxBatchSize and maxAttempts must be positive");
    }
  }

  public static AlertmanagerNotifierOptions defaults(AlertingConfig alerting) {
    return new AlertmanagerNotifierOptions(
        alerting,
        10_000,
        64,
        3,
        Duration.ofMillis(500),
        HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());
  }

  public AlertmanagerNotifierOptions withQueueCapacity(int capacity) {
    return new AlertmanagerNotifierOptions(
        alerting, capacity, maxBatchSize, maxAttempts, retryBackoff, httpClient);
  }

  public AlertmanagerNotifierOptions withMaxBatchSize(int size) {
    return new AlertmanagerNotifierOptions(
        alerting, queueCapacity, size, maxAttempts, retryBackoff, httpClient);
  }

  public AlertmanagerNotifierOptions withRetries(int attempts, Duration backoff) {
    return new AlertmanagerNotifierOptions(
        alerting, queueCapacity, maxBatchSize, attempts, backoff, httpClient);
  }
}
