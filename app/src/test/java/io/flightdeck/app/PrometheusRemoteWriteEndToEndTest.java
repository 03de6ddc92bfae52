package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.flightdeck.app.StoredSamples.Sample;
import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end against a real peer: Prometheus scrapes itself and remote-writes to Flightdeck; the
 * {@code up} samples Prometheus holds must arrive in Flightdeck with the same timestamps and
 * values, and still be there after Flightdeck restarts.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PrometheusRemoteWriteEndToEndTest {
  /** Prometheus ships from its WAL a few seconds after a scrape; generous for slow CI. */
  private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(120);

  private static final String UP = "up{job=\"prometheus\"}";

  @Test
  void scrapedSamplesArriveIntactAndSurviveARestart(@TempDir Path tmp) throws Exception {
    assumeTrue(
        Files.isExecutable(PrometheusProcess.BINARY),
        "Prometheus is not installed at "
            + PrometheusProcess.BINARY
            + " (CI installs Debian's prometheus package); skipping the end-to-end test");
    Path data = tmp.resolve("flightdeck");
    Labels upLabels;
    List<Sample> sent;
    try (FlightdeckServerProcess flightdeck =
            FlightdeckServerProcess.start(data, tmp.resolve("flightdeck-1.log"));
        PrometheusProcess prometheus =
            PrometheusProcess.start(tmp.resolve("prometheus"), flightdeck.uri("/api/v1/write"))) {
      flightdeck.awaitReady();
      prometheus.awaitReady();
      System.out.println("T " + java.time.Instant.now());
      Await.until(
          DELIVERY_TIMEOUT,
          "Flightdeck to append samples from Prometheus",
          () -> flightdeck.metric("flightdeck_tsdb_samples_appended_total").orElse(0) > 0);
      System.out.println("T " + java.time.Instant.now());
      Await.until(
          DELIVERY_TIMEOUT,
          "three scrapes of Prometheus by itself",
          () -> rawSamples(prometheus.query(UP + "[10m]")).size() >= 3);
      sent = rawSamples(prometheus.query(UP + "[10m]"));
      upLabels =
          Labels.of("__name__", "up", "instance", prometheus.instance(), "job", "prometheus");
      long newest = sent.get(sent.size() - 1).timestamp();
      System.out.println("T " + java.time.Instant.now());
      Await.until(
          DELIVERY_TIMEOUT,
          "Prometheus to report the newest up sample sent",
          () -> highestSentMillis(prometheus) >= newest);
      assertThat(singleValue(prometheus.query("prometheus_remote_storage_samples_failed_total")))
          .as("samples Flightdeck refused for good\n%s", flightdeck.log())
          .isZero();

      System.out.println("T " + java.time.Instant.now());
      flightdeck.stop();
      Files.copy(tmp.resolve("prometheus/prometheus.log"), Path.of("/tmp/prom.log"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      assertThat(StoredSamples.read(data, Matcher.equal("__name__", "up")))
          .as("up series in Flightdeck")
          .hasEntrySatisfying(upLabels, stored -> assertThat(stored).containsAll(sent));

      try (FlightdeckServerProcess restarted =
          FlightdeckServerProcess.start(data, tmp.resolve("flightdeck-2.log"))) {
        restarted.awaitReady();
        restarted.stop();
      }
    }
    FlightdeckCli.Result dump =
        FlightdeckCli.run("tsdb", "dump", data.toString(), "--match=" + UP);
    assertThat(dump.exitCode()).as(dump.stderr()).isZero();
    List<String> expectedLines = new ArrayList<>();
    for (Sample s : sent) {
      expectedLines.add(
          TsdbDumpCommand.format(upLabels)
              + " "
              + TsdbDumpCommand.formatValue(s.value())
              + " "
              + s.timestamp());
    }
    assertThat(dump.stdout().lines()).containsAll(expectedLines);
  }

  /** Samples of the single series a range query returned, with their own timestamps. */
  private static List<Sample> rawSamples(JsonNode result) {
    List<Sample> samples = new ArrayList<>();
    if (result.isEmpty()) {
      return samples;
    }
    assertThat(result.size()).as("series in %s", result).isOne();
    for (JsonNode pair : result.get(0).path("values")) {
      samples.add(new Sample(millis(pair.get(0)), Double.parseDouble(pair.get(1).asText())));
    }
    return samples;
  }

  private static long highestSentMillis(PrometheusProcess prometheus) throws Exception {
    JsonNode result =
        prometheus.query("prometheus_remote_storage_queue_highest_sent_timestamp_seconds");
    return result.isEmpty() ? Long.MIN_VALUE : (long) (singleValue(result) * 1000);
  }

  private static double singleValue(JsonNode vector) {
    assertThat(vector.size()).as("series in %s", vector).isOne();
    return Double.parseDouble(vector.get(0).path("value").get(1).asText());
  }

  /** Prometheus writes times as seconds with a millisecond fraction; converted exactly. */
  private static long millis(JsonNode seconds) {
    return seconds.decimalValue().multiply(BigDecimal.valueOf(1000)).longValueExact();
  }

}
