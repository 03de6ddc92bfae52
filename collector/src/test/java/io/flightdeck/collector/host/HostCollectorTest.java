package io.flightdeck.collector.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.testkit.ManualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostCollectorTest {

  @TempDir Path proc;

  @Test
  void failingCollectorIsReportedAndTheOthersStillAnswer() throws Exception {
    Files.writeString(proc.resolve("loadavg"), "0.50 0.25 0.10 2/300 4242\n");
    ManualClock clock = new ManualClock(1_000);
    Collector slowFailure =
        new Collector() {
          @Override
          public String name() {
            return "broken";
          }

          @Override
          public List<MetricFamily> collect() throws IOException {
            clock.set(1_250);
            throw new IOException("disk on fire");
          }
        };
    HostCollector host = new HostCollector(List.of(slowFailure, new LoadavgCollector(proc)), clock);

    HostCollector.Scrape scrape = host.collect();

    assertThat(scrape.failures()).containsExactly(Map.entry("broken", "disk on fire"));
    assertThat(MetricsText.toText(scrape.families()))
        .contains("node_load1 0.5\n")
        .contains("node_scrape_collector_duration_seconds{collector=\"broken\"} 0.25\n")
        .contains("node_scrape_collector_success{collector=\"broken\"} 0\n")
        .contains("node_scrape_collector_success{collector=\"loadavg\"} 1\n");
  }

  @Test
  void missingFilesFailOnlyTheirOwnCollector() throws Exception {
    Files.writeString(proc.resolve("loadavg"), "0.50 0.25 0.10 2/300 4242\n");

    HostCollector.Scrape scrape = HostCollector.linux(proc, new ManualClock(0)).collect();

    assertThat(scrape.failures()).containsOnlyKeys("cpu", "diskstats", "meminfo", "netdev");
    assertThat(MetricsText.toText(scrape.families()))
        .contains("node_load15 0.1\n")
        .contains("node_scrape_collector_success{collector=\"meminfo\"} 0\n")
        .doesNotContain("node_memory_");
  }

  @Test
  void cpusThatComeAndGoBetweenCollectionsKeepTheirOwnSeries() throws Exception {
    CpuCollector cpu = new CpuCollector(proc);
    Files.writeString(
        proc.resolve("stat"),
        "cpu  30 0 0 0 0 0 0 0 0 0\ncpu0 10 0 0 0 0 0 0 0 0 0\ncpu1 20 0 0 0 0 0 0 0 0 0\n");
    cpu.collect();
    Files.writeString(
        proc.resolve("stat"),
        "cpu  50 0 0 0 0 0 0 0 0 0\ncpu0 15 0 0 0 0 0 0 0 0 0\ncpu2 35 0 0 0 0 0 0 0 0 0\n");

    String text = MetricsText.toText(cpu.collect());

    assertThat(text)
        .contains("node_cpu_seconds_total{cpu=\"0\",mode=\"user\"} 0.15\n")
        .contains("node_cpu_seconds_total{cpu=\"2\",mode=\"user\"} 0.35\n")
        .contains("node_cpu_guest_seconds_total{cpu=\"2\",mode=\"nice\"} 0\n")
        .doesNotContain("cpu=\"1\"");
  }

  @Test
  void malformedFileNamesFileAndLine() throws Exception {
    Files.writeString(proc.resolve("meminfo"), "MemTotal:       16315788 kB\nMemFree: lots kB\n");

    HostCollector.Scrape scrape = HostCollector.linux(proc, new ManualClock(0)).collect();

    assertThat(scrape.failures().get("meminfo"))
        .isEqualTo("not a number: lots [file=meminfo, line=MemFree: lots kB]");
  }
}
