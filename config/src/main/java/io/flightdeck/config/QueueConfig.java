package io.flightdeck.config;

import java.time.Duration;

/** How a remote-write queue buffers, shards, batches and backs off; defaults are Prometheus's. */
public record QueueConfig(
    int capacity,
    int maxShards,
    int minShards,
    int maxSamplesPerSend,
    Duration batchSendDeadline,
    Duration minBackoff,
    Duration maxBackoff) {
  public static final QueueConfig DEFAULT =
      new QueueConfig(
          10_000,
          50,
          1,
          2_000,
          Duration.ofSeconds(5),
          Duration.ofMillis(30),
          Duration.ofSeconds(5));
}
