package io.flightdeck.app;

import io.flightdeck.api.ServerStatus;
import io.flightdeck.tsdb.Tsdb;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

/** The server's answers to the status endpoints: build, runtime, flags and configuration. */
final class AppServerStatus implements ServerStatus {
  private final Tsdb tsdb;
  private final Map<String, String> flags;
  private final java.util.function.Supplier<String> configText;
  private final Instant startTime = Instant.now();
  private final String hostname = hostname();

  AppServerStatus(
      Tsdb tsdb, Map<String, String> flags, java.util.function.Supplier<String> config) {
    this.tsdb = tsdb;
    this.flags = Map.copyOf(flags);
    this.configText = config;
  }

  @Override
  public Build build() {
    return new Build(
        BuildInfo.version(), "", "", "", "", "java" + java.lang.Runtime.version().feature());
  }

  @Override
  public ServerStatus.Runtime runtime() {
    return new ServerStatus.Runtime(
        startTime,
        Path.of("").toAbsolutePath().toString(),
        hostname,
        Instant.now(),
        true,
        startTime,
        tsdb.metrics().walCorruptions.sum(),
        ManagementFactory.getThreadMXBean().getThreadCount(),
        java.lang.Runtime.getRuntime().availableProcessors(),
        java.lang.Runtime.getRuntime().maxMemory(),
        "",
        "",
        retention());
  }

  @Override
  public Map<String, String> flags() {
    return flags;
  }

  /** The configuration in force, defaults filled in and secrets masked. */
  @Override
  public String configYaml() {
    return configText.get();
  }

  /** Prometheus's wording: {@code 15d}, {@code 50GiB}, or both joined by {@code or}. */
  private String retention() {
    String time = flags.getOrDefault("storage.tsdb.retention.time", "");
    String size = flags.getOrDefault("storage.tsdb.retention.size", "");
    if (size.isEmpty() || size.equals("0")) {
      return time;
    }
    return time.isEmpty() || time.equals("0") ? size : time + " or " + size;
  }

  private static String hostname() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "";
    }
  }
}
