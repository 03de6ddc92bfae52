package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same scrape configuration given to a real Prometheus (Debian's) and to Flightdeck, both
 * scraping one Python training job and one node_exporter: the series sets must match.
 */
class ScrapeParityTest {
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void flightdeckAndPrometheusStoreTheSameSeries() throws Exception {
    int trainerPort = LocalPorts.free();
    int nodePort = LocalPorts.free();
    int prometheusPort = LocalPorts.free();
    Path script = Path.of(getClass().getResource("/scrape/training_job.py").toURI());
    Path config = dir.resolve("flightdeck.yml");
    Files.writeString(
        config,
        """
        global:
          scrape_interval: 1s
        scrape_configs:
          - job_name: ms-swift-lora
            static_configs:
              - targets: ['127.0.0.1:%d']
                labels: {run: lora-7}
          - job_name: node
            static_configs:
              - targets: ['127.0.0.1:%d']
            metric_relabel_configs:
              - source_labels: [__name__]
                regex: 'node_(cpu|memory|network)_.*|up|scrape_.*'
                action: keep
        """
            .formatted(trainerPort, nodePort));
    Process trainer =
        start(dir.resolve("trainer.log"), "/usr/bin/python3", script.toString(), "" + trainerPort);
    Process node =
        start(
            dir.resolve("node_exporter.log"),
            "/usr/bin/prometheus-node-exporter",
            "--web.listen-address=127.0.0.1:" + nodePort);
    Process prometheus =
        start(
            dir.resolve("prometheus.log"),
            PrometheusProcess.BINARY.toString(),
            "--config.file=" + config,
            "--storage.tsdb.path=" + dir.resolve("prometheus-data"),
            "--web.listen-address=127.0.0.1:" + prometheusPort);
    try (FlightdeckServerProcess flightdeck =
        FlightdeckServerProcess.start(
                dir.resolve("flightdeck-data"),
                dir.resolve("flightdeck.log"),
                "--config.file=" + config)
            .awaitReady()) {
      URI prometheusBase = URI.create("http://127.0.0.1:" + prometheusPort);
      for (URI base : new URI[] {prometheusBase, flightdeck.uri("")}) {
        Await.until(
            WAIT,
            "three scrapes of both jobs by " + base,
            () ->
                series(base, "up == 1").size() == 2
                    && !series(base, "scrape_series_added == 0").isEmpty()
                    && series(base, "count_over_time(up[1m]) >= 3").size() == 2);
      }

      for (String job : new String[] {"ms-swift-lora", "node"}) {
        String selector = "{job=\"" + job + "\"}";
        Set<String> expected = stored(prometheusBase, selector);
        Set<String> actual = stored(flightdeck.uri(""), selector);
        assertThat(expected).as("Prometheus's series of %s", job).hasSizeGreaterThan(10);
        assertThat(actual).as("Flightdeck's series of job %s", job).isEqualTo(expected);
      }
    } finally {
      for (Process p : new Process[] {prometheus, node, trainer}) {
        p.destroy();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      }
    }
  }

  private static Process start(Path log, String... command) throws IOException {
    return new ProcessBuilder(command)
        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }

  /** Each series of an instant query's result, as its sorted labels. */
  private static Set<String> series(URI base, String promql)
      throws IOException, InterruptedException {
    return labelSets(get(base, "/api/v1/query?query=" + encode(promql)).path("result"), "metric");
  }

  /** Every series the selector matches over the last minute, as sorted labels. */
  private static Set<String> stored(URI base, String selector)
      throws IOException, InterruptedException {
    long now = System.currentTimeMillis() / 1000;
    return labelSets(
        get(
            base,
            "/api/v1/series?match[]=" + encode(selector) + "&start=" + (now - 60) + "&end=" + now),
        null);
  }

  private static JsonNode get(URI base, String pathAndQuery)
      throws IOException, InterruptedException {
    HttpResponse<String> response = TestHttp.get(base.resolve(pathAndQuery));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body()).path("data");
  }

  private static Set<String> labelSets(JsonNode list, String field) {
    Set<String> result = new TreeSet<>();
    for (JsonNode entry : list) {
      JsonNode labels = field == null ? entry : entry.path(field);
      Map<String, String> sorted = new TreeMap<>();
      labels.properties().forEach(e -> sorted.put(e.getKey(), e.getValue().asText()));
      result.add(sorted.toString());
    }
    return result;
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
