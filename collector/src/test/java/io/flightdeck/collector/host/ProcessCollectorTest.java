package io.flightdeck.collector.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessCollectorTest {
  @TempDir Path proc;

  @Test
  void readsRssCpuAndOpenFilesOfTheGivenPidsFromAFixtureTree() throws Exception {
    Path pid = Files.createDirectories(proc.resolve("4242"));
    Files.writeString(
        pid.resolve("stat"),
        "4242 (python (rank 0)) R 1 4242 4242 0 -1 4194304 100 0 0 0 1234 566 0 0 20 0 8 0 500"
            + " 1000000 2000 18446744073709551615\n");
    Files.writeString(pid.resolve("status"), "Name:\tpython\nVmRSS:\t  2048 kB\nThreads:\t8\n");
    Files.createDirectories(pid.resolve("fd"));
    for (int fd = 0; fd < 5; fd++) {
      Files.writeString(pid.resolve("fd/" + fd), "");
    }

    String text = MetricsText.toText(new ProcessCollector(proc).collect(Set.of(4242, 999)));

    assertThat(text)
        .contains("flightdeck_process_cpu_seconds_total{comm=\"python (rank 0)\",pid=\"4242\"} 18")
        .contains(
            "flightdeck_process_resident_memory_bytes{comm=\"python (rank 0)\",pid=\"4242\"} 2097152")
        .contains("flightdeck_process_open_fds{comm=\"python (rank 0)\",pid=\"4242\"} 5")
        .as("pid 999 has no directory")
        .doesNotContain("pid=\"999\"");
  }

  @Test
  void readsThisJvmFromTheLiveProcfs() {
    int self = (int) ProcessHandle.current().pid();
    String text = MetricsText.toText(new ProcessCollector(Path.of("/proc")).collect(Set.of(self)));
    String rss =
        text.lines()
            .filter(l -> l.startsWith("flightdeck_process_resident_memory_bytes{"))
            .findFirst()
            .orElseThrow();
    assertThat(Double.parseDouble(rss.substring(rss.lastIndexOf(' ') + 1))).isGreaterThan(10 << 20);
    assertThat(text).contains("pid=\"" + self + "\"").contains("comm=\"java\"");
  }
}
