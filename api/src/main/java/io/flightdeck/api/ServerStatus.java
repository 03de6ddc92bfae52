package io.flightdeck.api;

import java.time.Instant;
import java.util.Map;

/**
 * What the status endpoints report about the running server; the server implements it. Named after
 * Prometheus's fields, Go-specific ones filled with their closest Java counterparts.
 */
public interface ServerStatus {
  /** {@code /api/v1/status/buildinfo}; {@code goVersion} carries the Java version. */
  record Build(
      String version,
      String revision,
      String branch,
      String buildUser,
      String buildDate,
      String goVersion) {}

  /** {@code /api/v1/status/runtimeinfo}; {@code goroutineCount} counts live threads. */
  record Runtime(
      Instant startTime,
      String cwd,
      String hostname,
      Instant serverTime,
      boolean reloadConfigSuccess,
      Instant lastConfigTime,
      long corruptionCount,
      int goroutineCount,
      int gomaxprocs,
      long gomemlimit,
      String gogc,
      String godebug,
      String storageRetention) {}

  Build build();

  /** A fresh snapshot; called per request. */
  Runtime runtime();

  /** Every command-line flag by name without dashes, with its effective value. */
  Map<String, String> flags();

  /** The configuration as YAML, for {@code /api/v1/status/config}. */
  String configYaml();
}
