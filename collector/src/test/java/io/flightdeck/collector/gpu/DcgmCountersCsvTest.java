package io.flightdeck.collector.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.MetricType;
import io.flightdeck.testkit.SharedFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Our DCGM names, TYPEs and HELPs must match dcgm-exporter's {@code default-counters.csv}, enabled
 * lines first, then lines it ships commented out, so a rename upstream is caught.
 */
class DcgmCountersCsvTest {

  record Counter(String type, String help) {}

  static Map<String, Counter> counters() throws Exception {
    List<String> lines =
        Files.readAllLines(
            SharedFixtures.fixture("dcgm/default-counters.csv"), StandardCharsets.UTF_8);
    Map<String, Counter> enabled = new HashMap<>();
    Map<String, Counter> commented = new HashMap<>();
    for (String line : lines) {
      boolean isComment = line.startsWith("#");
      String body = isComment ? line.substring(1).strip() : line;
      String[] parts = body.split(",", 3);
      if (parts.length == 3 && parts[0].strip().startsWith("DCGM_")) {
        (isComment ? commented : enabled)
            .putIfAbsent(parts[0].strip(), new Counter(parts[1].strip(), parts[2].strip()));
      }
    }
    commented.putAll(enabled);
    return commented;
  }

  @Test
  void everyFieldMatchesTheCsv() throws Exception {
    Map<String, Counter> csv = counters();
    for (DcgmField field : DcgmField.values()) {
      if (field == DcgmField.CLOCKS_EVENT_REASONS) {
        assertThat(csv).doesNotContainKey(field.metricName());
        continue;
      }
      assertThat(csv.get(field.metricName()))
          .as(field.metricName())
          .isEqualTo(new Counter(type(field.type()), field.help()));
    }
    assertThat(csv.get(XidMonitor.XID_ERRORS))
        .isEqualTo(new Counter("gauge", "Value of the last XID error encountered."));
    assertThat(csv.get(DcgmField.DRIVER_VERSION_LABEL).type()).isEqualTo("label");
  }

  private static String type(MetricType type) {
    return type == MetricType.COUNTER ? "counter" : "gauge";
  }
}
