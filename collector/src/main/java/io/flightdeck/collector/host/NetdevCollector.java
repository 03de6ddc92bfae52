package io.flightdeck.collector.host;

import io.flightdeck.model.Labels;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * node_exporter's {@code netdev} collector as it reads /proc/net/dev: sixteen counters per
 * interface. Upstream exports every interface by default, loopback included (Debian's package
 * excludes {@code lo}); callers choose with the exclude predicate.
 */
final class NetdevCollector implements Collector {
  private static final String FILE = "net/dev";

  /** The columns after the interface name, in the kernel's order, as node_exporter names them. */
  private static final List<String> STATISTICS =
      List.of(
          "receive_bytes",
          "receive_packets",
          "receive_errs",
          "receive_drop",
          "receive_fifo",
          "receive_frame",
          "receive_compressed",
          "receive_multicast",
          "transmit_bytes",
          "transmit_packets",
          "transmit_errs",
          "transmit_drop",
          "transmit_fifo",
          "transmit_colls",
          "transmit_carrier",
          "transmit_compressed");

  private final Path procRoot;
  private final Predicate<String> excluded;

  /** {@code excluded} tests interface names, like {@code --collector.netdev.device-exclude}. */
  NetdevCollector(Path procRoot, Predicate<String> excluded) {
    this.procRoot = procRoot;
    this.excluded = excluded;
  }

  @Override
  public String name() {
    return "netdev";
  }

  @Override
  public List<MetricFamily> collect() throws IOException {
    List<MetricFamily> families = new ArrayList<>();
    for (String statistic : STATISTICS) {
      families.add(
          MetricFamily.counter(
              "node_network_" + statistic + "_total",
              "Network device statistic " + statistic + "."));
    }
    List<String> lines = ProcFile.lines(procRoot, FILE);
    // The first two lines are the column headings.
    for (String line : lines.subList(Math.min(2, lines.size()), lines.size())) {
      int colon = line.indexOf(':');
      if (colon < 0) {
        throw new MalformedProcFileException("expected 'interface: counters'", FILE, line);
      }
      String device = line.substring(0, colon).strip();
      if (excluded.test(device)) {
        continue;
      }
      String[] fields = ProcFile.fields(line.substring(colon + 1));
      if (fields.length != STATISTICS.size()) {
        throw new MalformedProcFileException("expected 16 counters", FILE, line);
      }
      Labels labels = Labels.of("device", device); // one set for the interface's 16 series
      for (int i = 0; i < fields.length; i++) {
        families.get(i).add(ProcFile.number(fields[i], FILE, line), labels);
      }
    }
    return families;
  }
}
