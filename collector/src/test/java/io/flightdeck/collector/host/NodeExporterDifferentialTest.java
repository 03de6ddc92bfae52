package io.flightdeck.collector.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Clock;
import io.flightdeck.model.Labels;
import io.flightdeck.testkit.ManualClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Our collectors beside a real node_exporter 1.5 reading the same procfs. */
class NodeExporterDifferentialTest {

  /** Families we do not reproduce: node_disk_info needs udev's database, not /proc. */
  private static final Set<String> NOT_OURS = Set.of("node_disk_info");

  @TempDir Path temp;

  @BeforeEach
  void requireBinary() {
    NodeExporterProcess.requireInstalled();
  }

  @Test
  void fixtureTreeGivesNodeExportersExactValues() throws Exception {
    Path proc = HostCollectorGoldenTest.fixtureProc();
    // An empty sysfs: the collectors we compare read /proc only.
    Path sys = Files.createDirectories(temp.resolve("sys"));
    Map<Labels, Double> theirs;
    try (NodeExporterProcess exporter =
        NodeExporterProcess.start(
            temp.resolve("node_exporter.log"), "--path.procfs=" + proc, "--path.sysfs=" + sys)) {
      theirs = comparable(exporter.scrape());
    }
    Map<Labels, Double> ours =
        comparable(series(HostCollector.linux(proc, new ManualClock(0)).collect().families()));

    assertThat(ours).isEqualTo(theirs);
  }

  @Test
  void liveHostMatchesNodeExporterBetweenTwoOfItsScrapes() throws Exception {
    Map<Labels, Double> before;
    Map<Labels, Double> ours;
    Map<Labels, Double> after;
    try (NodeExporterProcess exporter =
        NodeExporterProcess.start(temp.resolve("node_exporter.log"))) {
      before = comparable(exporter.scrape());
      HostCollector.Scrape scrape = HostCollector.linux(Path.of("/proc"), Clock.system()).collect();
      assertThat(scrape.failures()).isEmpty();
      ours = comparable(series(scrape.families()));
      after = comparable(exporter.scrape());
    }

    assertThat(names(ours))
        .contains("node_cpu_seconds_total", "node_load1", "node_memory_MemTotal_bytes")
        .contains("node_network_receive_bytes_total", "node_disk_read_bytes_total")
        .isEqualTo(names(before));
    assertThat(ours.keySet()).isEqualTo(before.keySet());
    double memTotal = ours.get(Labels.of(Labels.METRIC_NAME, "node_memory_MemTotal_bytes"));
    for (Map.Entry<Labels, Double> entry : ours.entrySet()) {
      Labels series = entry.getKey();
      double low = Math.min(before.get(series), after.get(series));
      double high = Math.max(before.get(series), after.get(series));
      double slack = slack(series.metricName(), high, memTotal);
      assertThat(entry.getValue()).as(series.toString()).isBetween(low - slack, high + slack);
    }
  }

  /**
   * How far outside node_exporter's two readings ours may fall. Counters are bracketed by the two
   * scrapes, bar a few ticks of the kernel's known iowait and idle jitter. Gauges move on their
   * own: memory fields by pages at a time, so small fields get a share of total memory; load and
   * in-flight I/O by whole units.
   */
  private static double slack(String name, double high, double memTotal) {
    if (name.startsWith("node_memory_")) {
      return 0.05 * Math.abs(high) + 0.01 * memTotal;
    }
    if (name.startsWith("node_load") || name.equals("node_disk_io_now")) {
      return 0.05 * Math.abs(high) + 1;
    }
    return 0.01 * Math.abs(high) + 0.1;
  }

  /** The series both sides should have: node_exporter's own and Go runtime families left out. */
  private static Map<Labels, Double> comparable(Map<Labels, Double> all) {
    Map<Labels, Double> kept = new HashMap<>();
    all.forEach(
        (series, value) -> {
          String name = series.metricName();
          boolean host =
              name.startsWith("node_")
                  && !name.startsWith("node_exporter_")
                  && !name.equals("node_scrape_collector_duration_seconds")
                  && !NOT_OURS.contains(name);
          if (host) {
            kept.put(series, value);
          }
        });
    return kept;
  }

  private static Map<Labels, Double> series(Iterable<MetricFamily> families) {
    Map<Labels, Double> series = new HashMap<>();
    for (MetricFamily family : families) {
      for (MetricFamily.Sample sample : family.samples()) {
        series.put(
            sample.labels().toBuilder().set(Labels.METRIC_NAME, family.name()).build(),
            sample.value());
      }
    }
    return series;
  }

  private static Set<String> names(Map<Labels, Double> series) {
    Set<String> names = new TreeSet<>();
    series.keySet().forEach(labels -> names.add(labels.metricName()));
    return names;
  }
}
