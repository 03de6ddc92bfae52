package io.flightdeck.collector.host;

import io.flightdeck.model.Labels;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * node_exporter's {@code cpu} collector, the /proc/stat part: per-CPU time in each mode, and the
 * time spent running guests, which the kernel also counts inside user and nice.
 */
final class CpuCollector implements Collector {
  private static final String FILE = "stat";

  /** USER_HZ: the kernel reports CPU time in ticks of 1/100 s on every architecture we run on. */
  private static final double USER_HZ = 100;

  /** The /proc/stat columns after the cpu name, in order, as node_exporter's mode labels. */
  private static final List<String> MODES =
      List.of("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal");

  private static final List<String> GUEST_MODES = List.of("user", "nice");

  private final Path procRoot;

  /**
   * Per CPU number, the label sets of its series (modes, then guest modes), built once: a host
   * lists the same CPUs every second, and a CPU taken offline comes back under the same number.
   */
  private final Map<String, Labels[]> labelsByCpu = new ConcurrentHashMap<>();

  CpuCollector(Path procRoot) {
    this.procRoot = procRoot;
  }

  @Override
  public String name() {
    return "cpu";
  }

  @Override
  public List<MetricFamily> collect() throws IOException {
    MetricFamily seconds =
        MetricFamily.counter("node_cpu_seconds_total", "Seconds the CPUs spent in each mode.");
    MetricFamily guest =
        MetricFamily.counter(
            "node_cpu_guest_seconds_total",
            "Seconds the CPUs spent in guests (VMs) for each mode.");
    for (String line : ProcFile.lines(procRoot, FILE)) {
      // Only cpu lines are split: the intr line has a column per interrupt, hundreds of them.
      if (!line.stripLeading().startsWith("cpu")) {
        continue;
      }
      String[] fields = ProcFile.fields(line);
      // node_exporter exports per-CPU series only; the aggregate "cpu" line is left to PromQL sums.
      if (fields.length == 0 || !fields[0].startsWith("cpu") || fields[0].equals("cpu")) {
        continue;
      }
      String cpu = fields[0].substring("cpu".length());
      if (fields.length < 1 + MODES.size()) {
        throw new MalformedProcFileException("too few CPU columns", FILE, line);
      }
      Labels[] labels = labelsByCpu.computeIfAbsent(cpu, CpuCollector::labels);
      for (int i = 0; i < MODES.size(); i++) {
        seconds.add(ticks(fields, 1 + i, line) / USER_HZ, labels[i]);
      }
      for (int i = 0; i < GUEST_MODES.size(); i++) {
        guest.add(ticks(fields, 1 + MODES.size() + i, line) / USER_HZ, labels[MODES.size() + i]);
      }
    }
    return List.of(seconds, guest);
  }

  private static Labels[] labels(String cpu) {
    Labels[] labels = new Labels[MODES.size() + GUEST_MODES.size()];
    for (int i = 0; i < MODES.size(); i++) {
      labels[i] = Labels.of("cpu", cpu, "mode", MODES.get(i));
    }
    for (int i = 0; i < GUEST_MODES.size(); i++) {
      labels[MODES.size() + i] = Labels.of("cpu", cpu, "mode", GUEST_MODES.get(i));
    }
    return labels;
  }

  /** Older kernels lack the guest columns; they count as zero there, as in node_exporter. */
  private static double ticks(String[] fields, int index, String line)
      throws MalformedProcFileException {
    return index < fields.length ? ProcFile.number(fields[index], FILE, line) : 0;
  }
}
