package io.flightdeck.app;

import com.sun.management.UnixOperatingSystemMXBean;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.DoubleSupplier;

/**
 * The agent's {@code process_*} series, with the names, types and help of client_java's {@code
 * ProcessMetrics}, read without its reflection: on every scrape that looked each getter up again
 * and built an access exception for it, costing more than rendering the whole collection (measured
 * in bench/, agent section). Linux only, as the agent is.
 */
final class AgentProcessMetrics {
  private static final Path STATUS = Path.of("/proc/self/status");

  private AgentProcessMetrics() {}

  static void register(PrometheusRegistry registry) {
    UnixOperatingSystemMXBean os =
        (UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    double startSeconds = ManagementFactory.getRuntimeMXBean().getStartTime() / 1000.0;
    CounterWithCallback.builder()
        .name("process_cpu_seconds")
        .help("Total user and system CPU time spent in seconds.")
        .callback(cb -> cb.call(os.getProcessCpuTime() / 1e9))
        .register(registry);
    gauge(
        registry,
        "process_start_time_seconds",
        "Start time of the process since unix epoch in seconds.",
        () -> startSeconds);
    gauge(
        registry,
        "process_open_fds",
        "Number of open file descriptors.",
        os::getOpenFileDescriptorCount);
    gauge(
        registry,
        "process_max_fds",
        "Maximum number of open file descriptors.",
        os::getMaxFileDescriptorCount);
    gauge(
        registry,
        "process_virtual_memory_bytes",
        "Virtual memory size in bytes.",
        () -> statusBytes("VmSize"));
    gauge(
        registry,
        "process_resident_memory_bytes",
        "Resident memory size in bytes.",
        () -> statusBytes("VmRSS"));
  }

  private static void gauge(
      PrometheusRegistry registry, String name, String help, DoubleSupplier value) {
    GaugeWithCallback.builder()
        .name(name)
        .help(help)
        .callback(cb -> cb.call(value.getAsDouble()))
        .register(registry);
  }

  /** A {@code kB} field of /proc/self/status, in bytes; NaN when it cannot be read. */
  private static double statusBytes(String field) {
    try {
      return kibField(Files.readString(STATUS, StandardCharsets.US_ASCII), field) * 1024;
    } catch (IOException e) {
      return Double.NaN;
    }
  }

  /** The value of a {@code Name: 123 kB} line of {@code status}; NaN when there is none. */
  static double kibField(String status, String field) {
    String text = "\n" + status;
    int at = text.indexOf("\n" + field + ":");
    if (at < 0) {
      return Double.NaN;
    }
    int start = at + field.length() + 2;
    int end = text.indexOf('\n', start);
    String value = text.substring(start, end < 0 ? text.length() : end).strip();
    if (!value.endsWith(" kB")) {
      return Double.NaN;
    }
    try {
      return Double.parseDouble(value.substring(0, value.length() - 3).strip());
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }
}
