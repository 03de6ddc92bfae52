package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same queries, at the same instant, on a real Prometheus and on Flightdeck fed by its remote
 * write: the response bodies must be identical byte for byte. So must the layout {@code
 * format_query} gives long queries.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PrometheusQueryParityTest {
  private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(120);
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final List<String> QUERIES =
      List.of(
          "up",
          "up{job=\"prometheus\"} * 2",
          "count(up)",
          "sum by (job, instance) (up)",
          "up offset 1h",
          "vector(1)",
          "1/0",
          "-1/0",
          "0/0",
          "time()",
          "\"hello\"",
          "label_replace(up, \"x\", \"<&>\", \"\", \"\")",
          "sum(");

  /**
   * Long enough to be laid out over several lines by {@code format_query}; kept to what 2.42 prints
   * as 3.x does (no {@code group_left} without {@code on}, no quoted label names).
   */
  private static final List<String> FORMATTED =
      List.of(
          "sum(rate(x[5m]))by(job)",
          "sum by (Hostname) (rate(node_network_receive_bytes_total{device!~\"lo|docker.*\"}[5m]))"
              + " / on (Hostname) group_left (cluster) sum by (Hostname) (node_load1{job=\"node\"})",
          "topk(5, avg_over_time(DCGM_FI_DEV_GPU_UTIL{Hostname=~\"gpu-node-.*\",gpu!=\"7\"}[10m])"
              + " < bool 15 unless on(gpu) DCGM_FI_DEV_FB_USED > 1000)",
          "-label_replace(max_over_time((rate(a_long_counter_total{job=\"trainer\"}[1m])"
              + " - rate(b_long_counter_total{job=\"trainer\"}[1m]))[30m:1m] offset 5m),"
              + " \"dst\", \"$1\", \"instance\", \"(.*):.*\")",
          "count_values without (instance) (\"version\", build_info{job=\"a_rather_long_job_name\"}"
              + " * on (instance) group_right () up{job=\"another_rather_long_job_name\"})",
          "(increase(DCGM_FI_DEV_XID_ERRORS[1m]) > 0 or (DCGM_FI_DEV_GPU_TEMP >= 90 and"
              + " DCGM_FI_DEV_POWER_USAGE @ end() > 700)) * 100");

  @Test
  void instantQueriesAnswerTheSameBytes(@TempDir Path tmp) throws Exception {
    PrometheusProcess.requireInstalled();
    FlightdeckServerProcess flightdeck =
        FlightdeckServerProcess.start(tmp.resolve("flightdeck"), tmp.resolve("flightdeck.log"));
    try (PrometheusProcess prometheus =
        PrometheusProcess.start(tmp.resolve("prometheus"), flightdeck.uri("/api/v1/write"))) {
      flightdeck.awaitReady();
      prometheus.awaitReady();
      String[] time = new String[1];
      Await.until(
          DELIVERY_TIMEOUT,
          "an up sample to reach Flightdeck",
          () -> {
            String body = TestHttp.get(flightdeck.uri(query("timestamp(up)", null))).body();
            var result = JSON.readTree(body).path("data").path("result");
            if (result.isEmpty()) {
              return false;
            }
            time[0] = result.get(0).path("value").get(1).asText();
            return true;
          });
      for (String query : QUERIES) {
        String path = query(query, time[0]);
        var expected = TestHttp.get(prometheus.uri(path));
        var actual = TestHttp.get(flightdeck.uri(path));
        assertThat(actual.body()).as(query).isEqualTo(expected.body());
        assertThat(actual.statusCode()).as(query).isEqualTo(expected.statusCode());
      }
      assertThat(TestHttp.get(flightdeck.uri(query("up", time[0]))).body())
          .as("the comparison is over real data")
          .contains("\"job\":\"prometheus\"},\"value\":[" + apiTimestamp(time[0]) + ",\"1\"]");
      String range =
          "/api/v1/query_range?query=vector(1)&start="
              + time[0]
              + "&end="
              + (Double.parseDouble(time[0]) + 10)
              + "&step=2.5";
      assertThat(TestHttp.get(flightdeck.uri(range)).body())
          .isEqualTo(TestHttp.get(prometheus.uri(range)).body());
      for (String query : FORMATTED) {
        String path =
            "/api/v1/format_query?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8);
        assertThat(TestHttp.get(flightdeck.uri(path)).body())
            .as(query)
            .isEqualTo(TestHttp.get(prometheus.uri(path)).body());
      }
    } finally {
      flightdeck.close();
    }
  }

  private static String query(String promql, String time) {
    return "/api/v1/query?query="
        + URLEncoder.encode(promql, StandardCharsets.UTF_8)
        + (time == null ? "" : "&time=" + time);
  }

  /**
   * A time given as a sample value ({@code 1796095348.48}) as the API writes timestamps: three
   * decimals whenever there is a fraction ({@code 1796095348.480}), as Prometheus does.
   */
  private static String apiTimestamp(String seconds) {
    long ms = new java.math.BigDecimal(seconds).movePointRight(3).longValueExact();
    return ms % 1000 == 0
        ? Long.toString(ms / 1000)
        : String.format("%d.%03d", ms / 1000, ms % 1000);
  }
}
