package io.flightdeck.remote;

import io.flightdeck.config.RemoteWriteConfig;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Options of one {@link RemoteWriteSender}.
 *
 * @param config the endpoint, its authentication, relabelling and queue settings
 * @param queueDir the directory of this endpoint's disk queue; one sender per directory
 * @param maxQueueBytes the bound of the disk queue; beyond it the oldest samples are dropped
 * @param flushTimeout how long {@link RemoteWriteSender#close()} keeps sending what is queued
 */
public record RemoteWriteSenderOptions(
    RemoteWriteConfig config, Path queueDir, long maxQueueBytes, Duration flushTimeout) {
  public static final long DEFAULT_MAX_QUEUE_BYTES = 1L << 30;
  public static final Duration DEFAULT_FLUSH_TIMEOUT = Duration.ofSeconds(5);
}
