package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.flightdeck.app.StoredSamples.Sample;
import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end against a real peer: Prometheus scrapes itself and remote-writes to Flightdeck. The
 * {@code up} samples Prometheus holds must arrive in Flightdeck with the same timestamps and
 * values, survive a restart of Flightdeck, and Prometheus must carry on delivering afterwards
 * without any sample refused.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PrometheusRemoteWriteEndToEndTest {
  /** Prometheus ships from its WAL some seconds after a scrape; generous for slow CI. */
  private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(120);

  private static final String UP = "up{job=\"prometheus\"}";

  @Test
  void scrapedSamplesArriveIntactAndSurviveARestart(@TempDir Path tmp) throws Exception {
    PrometheusProcess.requireInstalled();
    Path data = tmp.resolve("flightdeck");
    Labels upLabels;
    List<Sample> beforeRestart;
    List<Sample> afterRestart;
    FlightdeckServerProcess first =
        FlightdeckServerProcess.start(data, tmp.resolve("flightdeck-1.log"));
    FlightdeckServerProcess restarted = null;
    try {
      try (PrometheusProcess prometheus =
          PrometheusProcess.start(tmp.resolve("prometheus"), first.uri("/api/v1/write"))) {
        first.awaitReady();
        prometheus.awaitReady();
        upLabels =
            Labels.of("__name__", "up", "instance", prometheus.instance(), "job", "prometheus");
        Await.until(
            DELIVERY_TIMEOUT,
            "Flightdeck to append samples from Prometheus",
            () -> first.metric("flightdeck_tsdb_samples_appended_total").orElse(0) > 0);
        beforeRestart = awaitDelivered(prometheus, 3, Long.MIN_VALUE);
        assertThat(samplesFailed(prometheus)).as("samples Flightdeck refused for good").isZero();

        first.stop();
        assertThat(StoredSamples.read(data, Matcher.equal("__name__", "up")))
            .hasEntrySatisfying(upLabels, stored -> assertThat(stored).containsAll(beforeRestart));

        // The same port: Prometheus's config names it, and it retries into the new process.
        restarted =
            FlightdeckServerProcess.start(data, tmp.resolve("flightdeck-2.log"), first.port());
        restarted.awaitReady();
        long stoppedAt = beforeRestart.get(beforeRestart.size() - 1).timestamp();
        afterRestart = awaitDelivered(prometheus, 1, stoppedAt);
        assertThat(samplesFailed(prometheus)).as("samples Flightdeck refused for good").isZero();
      } // Prometheus stops first, while its remote-write target can still take the last batch
      restarted.stop();
    } finally {
      first.close();
      if (restarted != null) {
        restarted.close();
      }
    }
    FlightdeckCli.Result dump = FlightdeckCli.run("tsdb", "dump", data.toString(), "--match=" + UP);
    assertThat(dump.exitCode()).as(dump.stderr()).isZero();
    assertThat(dump.stdout().lines())
        .containsAll(dumpLines(upLabels, beforeRestart))
        .containsAll(dumpLines(upLabels, afterRestart));
  }

  /**
   * Waits until Prometheus holds at least {@code count} raw {@code up} samples newer than {@code
   * after} and reports having sent them; returns all raw {@code up} samples it held then.
   */
  private static List<Sample> awaitDelivered(PrometheusProcess prometheus, int count, long after)
      throws Exception {
    List<List<Sample>> held = new ArrayList<>(List.of(List.of()));
    Await.until(
        DELIVERY_TIMEOUT,
        count + " scrapes of Prometheus by itself after " + after,
        () -> {
          held.set(0, rawSamples(prometheus.query(UP + "[10m]")));
          return held.get(0).stream().filter(s -> s.timestamp() > after).count() >= count;
        });
    List<Sample> samples = held.get(0);
    long newest = samples.get(samples.size() - 1).timestamp();
    Await.until(
        DELIVERY_TIMEOUT,
        "Prometheus to report the up sample at " + newest + " sent",
        () -> highestSentMillis(prometheus) >= newest);
    return samples;
  }

  private static List<String> dumpLines(Labels labels, List<Sample> samples) {
    List<String> lines = new ArrayList<>();
    for (Sample s : samples) {
      lines.add(
          TsdbDumpCommand.format(labels)
              + " "
              + TsdbDumpCommand.formatValue(s.value())
              + " "
              + s.timestamp());
    }
    return lines;
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

  private static double samplesFailed(PrometheusProcess prometheus) throws Exception {
    return singleValue(prometheus.query("prometheus_remote_storage_samples_failed_total"));
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
