package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bodies in which a metric family's samples are split by another family's, through every way in:
 * VictoriaMetrics-style import and Pushgateway-style push store every sample they acknowledge, and
 * a scrape stores what a real Prometheus (Debian's) stores from the same text and OpenMetrics
 * bodies.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InterleavedIngestionEndToEndTest {
  private static final Duration WAIT = Duration.ofSeconds(120);

  private static final String TEXT_BODY =
      """
      # HELP ia A counter split by another family.
      # TYPE ia counter
      ia 1
      # TYPE ib gauge
      ib 2
      ia{x="y"} 3
      # TYPE ia counter
      ia{x="z"} 4
      # TYPE ih histogram
      ih_bucket{le="0.5"} 1
      ib{x="w"} 5
      ih_bucket{le="+Inf"} 2
      ih_sum 1.5
      ih_count 2
      """;

  private static final String OPENMETRICS_BODY =
      """
      # TYPE oa counter
      oa_total 1
      # TYPE ob gauge
      ob 2
      oa_total{x="y"} 3
      # EOF
      """;

  @TempDir static Path dir;

  private HttpServer target;
  private Process prometheus;
  private int prometheusPort;
  private FlightdeckServerProcess server;

  @BeforeAll
  void start() throws Exception {
    PrometheusProcess.requireInstalled();
    target = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    serve("/text", "text/plain; version=0.0.4; charset=utf-8", TEXT_BODY);
    serve(
        "/openmetrics",
        "application/openmetrics-text; version=1.0.0; charset=utf-8",
        OPENMETRICS_BODY);
    target.start();
    Path config = dir.resolve("scrape.yml");
    Files.writeString(
        config,
        """
        global:
          scrape_interval: 1s
        scrape_configs:
          - job_name: text
            metrics_path: /text
            static_configs:
              - targets: ['127.0.0.1:%1$d']
          - job_name: openmetrics
            metrics_path: /openmetrics
            static_configs:
              - targets: ['127.0.0.1:%1$d']
        """
            .formatted(target.getAddress().getPort()));
    prometheusPort = LocalPorts.free();
    prometheus =
        new ProcessBuilder(
                PrometheusProcess.BINARY.toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("prometheus-data"),
                "--web.listen-address=127.0.0.1:" + prometheusPort)
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("prometheus.log").toFile())
            .start();
    server =
        FlightdeckServerProcess.start(
                dir.resolve("data"), dir.resolve("server.log"), "--config.file=" + config)
            .awaitReady();
  }

  private void serve(String path, String contentType, String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    target.createContext(
        path,
        exchange -> {
          exchange.getResponseHeaders().set("Content-Type", contentType);
          exchange.sendResponseHeaders(200, bytes.length);
          try (var out = exchange.getResponseBody()) {
            out.write(bytes);
          }
        });
  }

  @AfterAll
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    if (prometheus != null) {
      prometheus.destroy();
      if (!prometheus.waitFor(30, TimeUnit.SECONDS)) {
        prometheus.destroyForcibly();
      }
    }
    if (target != null) {
      target.stop(0);
    }
  }

  @Test
  void anImportStoresEverySampleOfAFamilySplitByAnother() throws Exception {
    HttpResponse<String> response =
        TestHttp.post(
            server.uri("/api/v1/import/prometheus?extra_label=job=import"),
            TEXT_BODY.getBytes(StandardCharsets.UTF_8));

    assertThat(response.statusCode()).as(response.body()).isEqualTo(204);
    assertThat(values(server.uri(""), "{job=\"import\"}"))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "ia{job=import}", "1",
                "ib{job=import}", "2",
                "ia{job=import, x=y}", "3",
                "ia{job=import, x=z}", "4",
                "ih_bucket{job=import, le=0.5}", "1",
                "ib{job=import, x=w}", "5",
                "ih_bucket{job=import, le=+Inf}", "2",
                "ih_sum{job=import}", "1.5",
                "ih_count{job=import}", "2"));
  }

  @Test
  void anImportStoresASeriesGivenOutOfTimeOrderWhole() throws Exception {
    long base = System.currentTimeMillis() - 60_000;
    String body =
        ("late 3 %d\nother 1 %d\nlate 1 %d\nother 2 %d\nlate 2 %d\n")
            .formatted(base + 20_000, base, base, base + 10_000, base + 10_000);

    HttpResponse<String> response =
        TestHttp.post(
            server.uri("/api/v1/import/prometheus"), body.getBytes(StandardCharsets.UTF_8));

    assertThat(response.statusCode()).as(response.body()).isEqualTo(204);
    JsonNode stored =
        InstantQuery.result(server.uri(""), "late[1m]", "&time=" + seconds(base + 20_000));
    assertThat(stored).hasSize(1);
    List<String> samples = new ArrayList<>();
    for (JsonNode sample : stored.get(0).path("values")) {
      samples.add(Math.round(sample.get(0).asDouble() * 1000) + "=" + sample.get(1).asText());
    }
    assertThat(samples)
        .containsExactly(base + "=1", (base + 10_000) + "=2", (base + 20_000) + "=3");
  }

  @Test
  void aPushStoresEverySampleOfAFamilySplitByAnotherAndRefusesARetypedOne() throws Exception {
    HttpResponse<String> pushed =
        TestHttp.post(
            server.uri("/metrics/job/pusher"),
            "# TYPE pa counter\npa 1\n# TYPE pb gauge\npb 2\npa{x=\"y\"} 3\n"
                .getBytes(StandardCharsets.UTF_8));

    assertThat(pushed.statusCode()).as(pushed.body()).isEqualTo(200);
    assertThat(values(server.uri(""), "{job=\"pusher\",__name__=~\"pa|pb\"}"))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("pa{job=pusher}", "1", "pb{job=pusher}", "2", "pa{job=pusher, x=y}", "3"));

    // As Pushgateway, a POST replaces the families it brings, all their series, and no other.
    HttpResponse<String> replaced =
        TestHttp.post(
            server.uri("/metrics/job/pusher"), "pa{x=\"z\"} 7\n".getBytes(StandardCharsets.UTF_8));
    assertThat(replaced.statusCode()).as(replaced.body()).isEqualTo(200);
    assertThat(values(server.uri(""), "{job=\"pusher\",__name__=~\"pa|pb\"}"))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("pa{job=pusher, x=z}", "7", "pb{job=pusher}", "2"));

    HttpResponse<String> refused =
        TestHttp.post(
            server.uri("/metrics/job/retyped"),
            "# TYPE ra counter\nra 1\n# TYPE rb gauge\nrb 2\n# TYPE ra counter\nra{x=\"y\"} 3\n"
                .getBytes(StandardCharsets.UTF_8));
    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.body())
        .isEqualTo(
            "text format parsing error: TYPE line for metric name \"ra\" after its samples"
                + " (from line 2) [line=5, column=8]\n");
    assertThat(InstantQuery.result(server.uri(""), "{__name__=~\"ra|rb\"}")).isEmpty();
  }

  @Test
  void aScrapeStoresWhatPrometheusStoresFromTheSameBodies() throws Exception {
    URI prometheusBase = URI.create("http://127.0.0.1:" + prometheusPort);
    String selector = "{job=~\"text|openmetrics\",__name__!~\"up|scrape_.*\"}";
    for (URI base : new URI[] {prometheusBase, server.uri("")}) {
      Await.until(
          WAIT,
          "both jobs scraped by " + base,
          () -> InstantQuery.result(base, "up == 1").size() == 2);
    }

    Map<String, String> expected = values(prometheusBase, selector);
    assertThat(expected)
        .as("Prometheus's samples")
        .containsEntry("ia{instance=*, job=text, x=z}", "4")
        .containsEntry("ib{instance=*, job=text, x=w}", "5")
        .containsEntry("oa_total{instance=*, job=openmetrics, x=y}", "3")
        .hasSize(12);
    assertThat(values(server.uri(""), selector)).isEqualTo(expected);
  }

  private static String seconds(long millis) {
    return new java.math.BigDecimal(millis).movePointLeft(3).stripTrailingZeros().toPlainString();
  }

  /**
   * An instant query's series as {@code name{label=value, ...}} (sorted, instance as {@code *}) to
   * their values.
   */
  private static Map<String, String> values(URI base, String promql) throws Exception {
    Map<String, String> values = new TreeMap<>();
    for (JsonNode series : InstantQuery.result(base, promql)) {
      Set<String> labels = new TreeSet<>();
      series
          .path("metric")
          .properties()
          .forEach(
              e -> {
                if (!e.getKey().equals("__name__")) {
                  String value = e.getKey().equals("instance") ? "*" : e.getValue().asText();
                  labels.add(e.getKey() + "=" + value);
                }
              });
      String name = series.path("metric").path("__name__").asText();
      values.put(
          name + "{" + String.join(", ", labels) + "}", series.path("value").get(1).asText());
    }
    return values;
  }
}
