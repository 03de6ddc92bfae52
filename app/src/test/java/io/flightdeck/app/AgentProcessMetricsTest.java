package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.collector.host.MetricsTextRenderer;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class AgentProcessMetricsTest {

  @Test
  void servesClientJavasProcessSeriesWithTheirHelpAndType() throws Exception {
    String text =
        new String(
            new MetricsTextRenderer().render(new AgentProcessMetrics().families()),
            StandardCharsets.UTF_8);

    assertThat(text)
        .contains(
            "# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.\n"
                + "# TYPE process_cpu_seconds_total counter\n")
        .contains("# TYPE process_max_fds gauge\n")
        .contains("# TYPE process_open_fds gauge\n")
        .contains("# HELP process_resident_memory_bytes Resident memory size in bytes.\n")
        .contains("# TYPE process_start_time_seconds gauge\n")
        .contains("# HELP process_virtual_memory_bytes Virtual memory size in bytes.\n");
    assertThat(value(text, "process_resident_memory_bytes")).isPositive();
    assertThat(value(text, "process_virtual_memory_bytes"))
        .isGreaterThan(value(text, "process_resident_memory_bytes"));
    assertThat(value(text, "process_open_fds")).isPositive();
    assertThat(value(text, "process_start_time_seconds"))
        .isBetween(1.6e9, System.currentTimeMillis() / 1000.0);
  }

  @Test
  void readsKibFieldsOfProcStatus() {
    String status = "Name:\tjava\nVmSize:\t 8529248 kB\nVmRSS:\t  105784 kB\nThreads:\t21\n";

    assertThat(AgentProcessMetrics.kibField(status, "VmSize")).isEqualTo(8529248);
    assertThat(AgentProcessMetrics.kibField(status, "VmRSS")).isEqualTo(105784);
    assertThat(AgentProcessMetrics.kibField(status, "Name")).isNaN();
    assertThat(AgentProcessMetrics.kibField(status, "VmSwap")).isNaN();
    assertThat(AgentProcessMetrics.kibField(status, "RSS")).isNaN();
  }

  private static double value(String text, String name) {
    Matcher m = Pattern.compile("(?m)^" + name + " (\\S+)$").matcher(text);
    assertThat(m.find()).as("a sample of %s", name).isTrue();
    return Double.parseDouble(m.group(1));
  }
}
