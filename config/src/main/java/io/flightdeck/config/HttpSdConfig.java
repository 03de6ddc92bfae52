package io.flightdeck.config;

import java.net.URI;
import java.time.Duration;

/** Targets fetched as JSON from an HTTP(S) endpoint. */
public record HttpSdConfig(URI url, Duration refreshInterval) {
  public static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofMinutes(1);
}
