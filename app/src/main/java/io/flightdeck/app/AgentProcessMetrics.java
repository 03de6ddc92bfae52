package io.flightdeck.app;

import com.sun.management.UnixOperatingSystemMXBean;
import io.flightdeck.collector.host.MetricFamily;
import io.flightdeck.collector.host.ProcFile;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;

/**
 * The agent's {@code process_*} series, with the names, types and help of client_java's {@code
 * ProcessMetrics}, read without its reflection: on every scrape that looked each getter up again
 * and built an access exception for it, costing more than rendering the whole collection (measured
 * in bench/, agent section). Both memory figures come from one read of {@code /proc/self/status}.
 * Linux only, as the agent is. Thread-safe.
 */
final class AgentProcessMetrics {
  private static final Path STATUS = Path.of("/proc/self/status");

  private final UnixOperatingSystemMXBean os =
      (UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private final double startSeconds = ManagementFactory.getRuntimeMXBean().getStartTime() / 1000.0;

  /** The six families, values read now. */
  List<MetricFamily> families() {
    String status = status();
    return List.of(
        MetricFamily.counter(
                "process_cpu_seconds_total", "Total user and system CPU time spent in seconds.")
            .add(os.getProcessCpuTime() / 1e9),
        MetricFamily.gauge(
                "process_start_time_seconds",
                "Start time of the process since unix epoch in seconds.")
            .add(startSeconds),
        MetricFamily.gauge("process_open_fds", "Number of open file descriptors.")
            .add(os.getOpenFileDescriptorCount()),
        MetricFamily.gauge("process_max_fds", "Maximum number of open file descriptors.")
            .add(os.getMaxFileDescriptorCount()),
        MetricFamily.gauge("process_virtual_memory_bytes", "Virtual memory size in bytes.")
            .add(kibField(status, "VmSize") * 1024),
        MetricFamily.gauge("process_resident_memory_bytes", "Resident memory size in bytes.")
            .add(kibField(status, "VmRSS") * 1024));
  }

  /**
   * /proc/self/status, or an empty text (NaN values) when it cannot be read; kept open by {@link
   * ProcFile}, as the host collectors' files are.
   */
  private static String status() {
    try {
      return ProcFile.read(STATUS);
    } catch (IOException e) {
      return "";
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
