package io.flightdeck.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.config.ScrapeConfig;
import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricType;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.storage.StorageUnavailableException;
import io.flightdeck.testkit.ManualClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ScrapeLoopTest {
  private static final long T0 = 1_700_000_000_000L;

  private final ManualClock clock = new ManualClock(T0);
  private final RecordingStorage storage = new RecordingStorage();
  private final ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor();
  private final List<ScrapeClient> clients = new ArrayList<>();
  private TargetServer server;

  @BeforeEach
  void startServer() throws Exception {
    server = new TargetServer();
  }

  @AfterEach
  void stopServer() {
    server.close();
    clients.forEach(ScrapeClient::close);
    deadlines.shutdownNow();
  }

  private ScrapeLoop loop(String jobYaml) throws Exception {
    return loop(jobYaml, server.address());
  }

  private ScrapeLoop loop(String jobYaml, String address) throws Exception {
    ScrapeConfig job = TestConfigs.job(jobYaml);
    TargetBuilder.Result result =
        TargetBuilder.build(Labels.of("__address__", address), Labels.EMPTY, job);
    return new ScrapeLoop(result.target(), result.discovered(), job, scraper(job), storage, clock);
  }

  private HttpScraper scraper(ScrapeConfig job) throws ScrapeException {
    ScrapeClient client = new ScrapeClient(job.httpClient());
    clients.add(client);
    return new HttpScraper(client, deadlines, job);
  }

  private static final String JOB = "- job_name: train\n";

  private Map<String, Double> valuesAt(long time) {
    return storage.at(time).stream()
        .collect(
            Collectors.toMap(
                s -> s.labels().toString(), RecordingStorage.Sample::value, (a, b) -> b));
  }

  private double value(String name, long time) {
    return storage.at(time).stream()
        .filter(s -> s.labels().metricName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + name + " at " + time))
        .value();
  }

  private Labels series(String... namesAndValues) {
    return Labels.of(namesAndValues).toBuilder()
        .set("job", "train")
        .set("instance", server.address())
        .build();
  }

  @Test
  void scrapesAFixtureWithTargetLabelsSyntheticSeriesAndMetadata() throws Exception {
    server.serveFixture(
        "/metrics",
        TargetServer.TEXT,
        "client_python/text-format-0.0.4/TestGenerateText__test_histogram.txt");
    ScrapeLoop loop = loop(JOB);

    loop.scrapeOnce();

    Map<String, Double> stored = valuesAt(T0);
    assertThat(stored)
        .containsEntry(series("__name__", "hh_bucket", "le", "0.05").toString(), 1.0)
        .containsEntry(series("__name__", "hh_sum").toString(), 0.05)
        .containsEntry(series("__name__", "up").toString(), 1.0)
        .containsEntry(series("__name__", "scrape_samples_scraped").toString(), 18.0)
        .containsEntry(series("__name__", "scrape_samples_post_metric_relabeling").toString(), 18.0)
        .containsEntry(series("__name__", "scrape_series_added").toString(), 18.0)
        .containsKey(series("__name__", "scrape_duration_seconds").toString());
    assertThat(storage.commits()).isEqualTo(1);
    assertThat(storage.metadata().get("hh").type()).isEqualTo(MetricType.HISTOGRAM);
    assertThat(loop.status().health()).isEqualTo(Health.UP);
    assertThat(loop.status().lastScrapeMillis()).isEqualTo(T0);
    assertThat(server.requests().get(0).headers().getFirst("Accept"))
        .startsWith("application/openmetrics-text;version=1.0.0;q=0.6,")
        .contains("text/plain;version=0.0.4");
    assertThat(server.requests().get(0).headers().getFirst("X-Prometheus-Scrape-Timeout-Seconds"))
        .isEqualTo("10");
  }

  @Test
  void scrapesThroughTheConfiguredProxy() throws Exception {
    // The target's name does not resolve: only the proxy (our server) can answer for it.
    server.serve("/metrics", TargetServer.TEXT, "llm_train_step 42\n");
    ScrapeLoop loop =
        loop(JOB + "  proxy_url: http://" + server.address() + "\n", "gpu-node-7.invalid:9100");

    loop.scrapeOnce();

    assertThat(loop.status().lastError()).isEmpty();
    assertThat(loop.status().health()).isEqualTo(Health.UP);
    assertThat(value("llm_train_step", T0)).isEqualTo(42);
  }

  @Test
  void parsesOpenMetricsAndGzip() throws Exception {
    server.serve(
        "/metrics",
        new TargetServer.Response(
            200,
            TargetServer.OPENMETRICS,
            "# TYPE llm_train_loss gauge\nllm_train_loss 2.5\n# EOF\n"
                .getBytes(StandardCharsets.UTF_8),
            true));
    ScrapeLoop loop = loop(JOB);

    loop.scrapeOnce();

    assertThat(loop.status().lastError()).isEmpty();
    assertThat(value("llm_train_loss", T0)).isEqualTo(2.5);
  }

  @Test
  void marksSeriesThatDisappearStale() throws Exception {
    ScrapeLoop loop = loop(JOB);
    server.serve(
        "/metrics",
        TargetServer.TEXT,
        "gpu_memory_used_mb{device=\"cuda:0\"} 100\ngpu_memory_used_mb{device=\"cuda:1\"} 200\n");
    loop.scrapeOnce();

    clock.advance(Duration.ofSeconds(15));
    server.serve("/metrics", TargetServer.TEXT, "gpu_memory_used_mb{device=\"cuda:0\"} 110\n");
    loop.scrapeOnce();

    long t1 = T0 + 15_000;
    Map<String, Double> second = valuesAt(t1);
    assertThat(second.get(series("__name__", "gpu_memory_used_mb", "device", "cuda:0").toString()))
        .isEqualTo(110.0);
    assertThat(second.get(series("__name__", "gpu_memory_used_mb", "device", "cuda:1").toString()))
        .matches(StaleMarker::is);
    assertThat(value("scrape_series_added", t1)).isZero();
  }

  @Test
  void aSeriesWrittenAnotherWayIsTheSameSeries() throws Exception {
    ScrapeLoop loop = loop(JOB);
    server.serve("/metrics", TargetServer.TEXT, "gpu_util{gpu=\"0\",node=\"a\"} 10\n");
    loop.scrapeOnce();

    clock.advance(Duration.ofSeconds(15));
    server.serve("/metrics", TargetServer.TEXT, "gpu_util{node=\"a\", gpu=\"0\"} 20\n");
    loop.scrapeOnce();

    long t1 = T0 + 15_000;
    assertThat(storage.named("gpu_util"))
        .extracting(RecordingStorage.Sample::timestamp, RecordingStorage.Sample::value)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(T0, 10.0),
            org.assertj.core.groups.Tuple.tuple(t1, 20.0));
    // New bytes count as added, as in Prometheus, whose figure is approximate too.
    assertThat(value("scrape_series_added", t1)).isEqualTo(1);
  }

  @Test
  void aSeriesThatComesBackAfterAGapIsAddedAgainAndEndedOnce() throws Exception {
    ScrapeLoop loop = loop(JOB);
    server.serve("/metrics", TargetServer.TEXT, "a 1\nb 1\n");
    loop.scrapeOnce();
    for (int i = 1; i <= 3; i++) {
      clock.advance(Duration.ofSeconds(15));
      server.serve("/metrics", TargetServer.TEXT, "a " + (i + 1) + "\n");
      loop.scrapeOnce();
    }
    clock.advance(Duration.ofSeconds(15));
    server.serve("/metrics", TargetServer.TEXT, "a 5\nb 5\n");
    loop.scrapeOnce();

    assertThat(storage.named("b"))
        .extracting(RecordingStorage.Sample::timestamp)
        .containsExactly(T0, T0 + 15_000, T0 + 60_000);
    assertThat(StaleMarker.is(storage.named("b").get(1).value())).isTrue();
    assertThat(value("scrape_series_added", T0 + 60_000)).isEqualTo(1);
    assertThat(value("scrape_series_added", T0 + 45_000)).isZero();
  }

  @Test
  void droppedSeriesStayDroppedOnLaterScrapes() throws Exception {
    ScrapeLoop loop =
        loop(
            JOB
                + """
                  metric_relabel_configs:
                    - source_labels: [__name__]
                      regex: 'go_.*'
                      action: drop
                """);
    server.serve("/metrics", TargetServer.TEXT, "go_goroutines 7\nllm_step 1\n");
    loop.scrapeOnce();
    clock.advance(Duration.ofSeconds(15));
    server.serve("/metrics", TargetServer.TEXT, "go_goroutines 8\nllm_step 2\n");
    loop.scrapeOnce();

    assertThat(storage.named("go_goroutines")).isEmpty();
    assertThat(storage.named("llm_step")).hasSize(2);
    assertThat(value("scrape_samples_scraped", T0 + 15_000)).isEqualTo(2);
    assertThat(value("scrape_samples_post_metric_relabeling", T0 + 15_000)).isEqualTo(1);
  }

  @Test
  void timestampsWithinTwoMillisecondsOfTheScheduleAreAligned() throws Exception {
    ScrapeLoop loop = loop(JOB + "  scrape_interval: 15s\n");
    server.serve("/metrics", TargetServer.TEXT, "llm_train_step 1\n");
    loop.scrapeOnce();
    clock.set(T0 + 15_002);
    loop.scrapeOnce();
    clock.set(T0 + 30_003);
    loop.scrapeOnce();
    clock.set(T0 + 44_999); // early: keeps its time
    loop.scrapeOnce();
    clock.set(T0 + 120_001); // four ticks skipped
    loop.scrapeOnce();

    assertThat(storage.named("llm_train_step"))
        .extracting(RecordingStorage.Sample::timestamp)
        .containsExactly(T0, T0 + 15_000, T0 + 30_003, T0 + 44_999, T0 + 120_000);
    assertThat(storage.named("up"))
        .extracting(RecordingStorage.Sample::timestamp)
        .containsExactly(T0, T0 + 15_000, T0 + 30_003, T0 + 44_999, T0 + 120_000);
  }

  @Test
  void aFailedScrapeReportsDownAndMarksEverySeriesStale() throws Exception {
    ScrapeLoop loop = loop(JOB);
    server.serve("/metrics", TargetServer.TEXT, "llm_train_step 41\n");
    loop.scrapeOnce();

    clock.advance(Duration.ofSeconds(15));
    server.serve(
        "/metrics", new TargetServer.Response(500, "text/plain", "boom".getBytes(), false));
    loop.scrapeOnce();

    long t1 = T0 + 15_000;
    assertThat(value("up", t1)).isZero();
    assertThat(value("llm_train_step", t1)).matches(StaleMarker::is);
    assertThat(loop.status().health()).isEqualTo(Health.DOWN);
    assertThat(loop.status().lastError()).isEqualTo("server returned HTTP status 500");
  }

  @Test
  void aParseErrorFailsTheScrapeNamingTheLine() throws Exception {
    ScrapeLoop loop = loop(JOB);
    server.serve("/metrics", TargetServer.TEXT, "ok 1\nbroken{ 2\n");

    loop.scrapeOnce();

    assertThat(loop.status().lastError()).contains("line=2");
    assertThat(value("up", T0)).isZero();
    assertThat(storage.named("ok")).isEmpty();
  }

  @Test
  void aBodyWithoutAContentTypeFailsUnlessTheJobNamesAFallback() throws Exception {
    // Timestamps tell the parsers apart: seconds in OpenMetrics, milliseconds in text.
    server.serve("/metrics", null, "train_loss 0.7 1600000000\n# EOF\n");
    ScrapeLoop strict = loop(JOB);

    strict.scrapeOnce();

    assertThat(strict.status().lastError())
        .isEqualTo(
            "non-compliant scrape target sending blank Content-Type and no"
                + " fallback_scrape_protocol specified for target");
    assertThat(value("up", T0)).isZero();

    loop(JOB + "  fallback_scrape_protocol: OpenMetricsText1.0.0\n").scrapeOnce();
    assertThat(storage.named("train_loss").get(0).timestamp()).isEqualTo(1_600_000_000_000L);
  }

  @Test
  void anUnknownContentTypeNamesItself() throws Exception {
    server.serve("/metrics", "application/json", "{}");
    ScrapeLoop loop = loop(JOB);

    loop.scrapeOnce();

    assertThat(loop.status().lastError())
        .isEqualTo(
            "received unsupported Content-Type \"application/json\" and no"
                + " fallback_scrape_protocol specified for target");
  }

  @Test
  void sampleLimitFailsTheWholeScrape() throws Exception {
    ScrapeLoop loop = loop(JOB + "  sample_limit: 2\n");
    server.serve("/metrics", TargetServer.TEXT, "a 1\nb 2\nc 3\n");

    loop.scrapeOnce();

    assertThat(loop.status().lastError()).isEqualTo("sample limit exceeded");
    assertThat(storage.named("a")).isEmpty();
    assertThat(value("up", T0)).isZero();
    assertThat(value("scrape_samples_post_metric_relabeling", T0)).isZero();
  }

  @Test
  void labelLimitFailsTheWholeScrape() throws Exception {
    ScrapeLoop loop = loop(JOB + "  label_limit: 4\n");
    server.serve("/metrics", TargetServer.TEXT, "a{x=\"1\"} 1\nb{x=\"1\",y=\"2\"} 2\n");

    loop.scrapeOnce();

    assertThat(loop.status().lastError())
        .isEqualTo("label_limit exceeded (metric: b, number of labels: 5, limit: 4)");
    assertThat(storage.named("a")).isEmpty();
  }

  @Test
  void bodySizeLimitFailsTheScrapeEvenWhenCompressed() throws Exception {
    ScrapeLoop loop = loop(JOB + "  body_size_limit: 100B\n");
    String big = "padding_metric_with_a_long_name 1\n".repeat(20);
    server.serve(
        "/metrics",
        new TargetServer.Response(
            200, TargetServer.TEXT, big.getBytes(StandardCharsets.UTF_8), true));

    loop.scrapeOnce();

    assertThat(loop.status().lastError()).isEqualTo("body size limit exceeded");
    assertThat(storage.named("padding_metric_with_a_long_name")).isEmpty();
  }

  @Test
  void metricRelabellingDropsAndIsCounted() throws Exception {
    ScrapeLoop loop =
        loop(
            JOB
                + """
                  metric_relabel_configs:
                    - source_labels: [__name__]
                      regex: 'go_.*'
                      action: drop
                """);
    server.serve("/metrics", TargetServer.TEXT, "go_goroutines 7\nllm_learning_rate 0.0001\n");

    loop.scrapeOnce();

    assertThat(storage.named("go_goroutines")).isEmpty();
    assertThat(value("llm_learning_rate", T0)).isEqualTo(0.0001);
    assertThat(value("scrape_samples_scraped", T0)).isEqualTo(2);
    assertThat(value("scrape_samples_post_metric_relabeling", T0)).isEqualTo(1);
  }

  @Test
  void honorTimestampsDecidesWhoseTimeIsStored() throws Exception {
    server.serve("/metrics", TargetServer.TEXT, "train_loss 0.7 1600000000000\n");
    loop(JOB).scrapeOnce();
    assertThat(storage.named("train_loss").get(0).timestamp()).isEqualTo(1_600_000_000_000L);

    clock.advance(Duration.ofSeconds(1));
    loop(JOB + "  honor_timestamps: false\n").scrapeOnce();
    assertThat(storage.named("train_loss").get(1).timestamp()).isEqualTo(T0 + 1000);
  }

  @Test
  void sendsCredentialsAndParams() throws Exception {
    server.serve("/metrics", TargetServer.TEXT, "x 1\n");
    loop(JOB
            + """
                  basic_auth:
                    username: ops
                    password: s3cret
                  params:
                    collect[]: [gpu]
                """)
        .scrapeOnce();

    TargetServer.Request request = server.requests().get(0);
    assertThat(request.headers().getFirst("Authorization"))
        .isEqualTo(
            "Basic "
                + Base64.getEncoder()
                    .encodeToString("ops:s3cret".getBytes(StandardCharsets.UTF_8)));
    assertThat(request.query()).isEqualTo("collect%5B%5D=gpu");
  }

  @Test
  void aBearerTokenIsSent() throws Exception {
    server.serve("/metrics", TargetServer.TEXT, "x 1\n");
    loop(JOB + "  authorization:\n    credentials: tok\n").scrapeOnce();
    assertThat(server.requests().get(0).headers().getFirst("Authorization"))
        .isEqualTo("Bearer tok");
  }

  @Test
  void stoppingWithStalenessEndsEverySeriesIncludingSyntheticOnes() throws Exception {
    ScrapeLoop loop = loop(JOB);
    server.serve("/metrics", TargetServer.TEXT, "llm_train_step 41\n");
    loop.scrapeOnce();
    clock.advance(Duration.ofSeconds(5));

    loop.stop(true);
    loop.scrapeOnce();

    List<RecordingStorage.Sample> ended = storage.at(T0 + 5000);
    assertThat(ended).hasSize(6).allMatch(s -> StaleMarker.is(s.value()));
    assertThat(ended).extracting(s -> s.labels().metricName()).contains("llm_train_step", "up");
  }

  @Test
  void aHangingTargetFailsAfterTheTimeout() throws Exception {
    server.hang("/metrics");
    ScrapeLoop loop = loop("- job_name: train\n  scrape_interval: 1s\n  scrape_timeout: 200ms\n");

    loop.scrapeOnce();

    assertThat(loop.status().lastError()).contains("context deadline exceeded");
    assertThat(value("up", T0)).isZero();
  }

  @Test
  void scrapesTheNodeExporterFixtureWhole() throws Exception {
    server.serveFixture("/metrics", TargetServer.TEXT, "node_exporter/e2e-output.txt");
    ScrapeLoop loop = loop(JOB);

    loop.scrapeOnce();

    assertThat(loop.status().lastError()).isEmpty();
    assertThat(value("scrape_samples_scraped", T0)).isEqualTo(3027);
    assertThat(storage.named("node_cpu_seconds_total")).hasSize(64);
    assertThat(storage.metadata().get("node_cpu_seconds_total").type())
        .isEqualTo(MetricType.COUNTER);
  }

  @Test
  void storageThatCannotTakeWritesMarksTheTargetDown() throws Exception {
    server.serve("/metrics", TargetServer.TEXT, "x 1\n");
    ScrapeConfig job = TestConfigs.job(JOB);
    TargetBuilder.Result result =
        TargetBuilder.build(Labels.of("__address__", server.address()), Labels.EMPTY, job);
    ScrapeLoop loop =
        new ScrapeLoop(
            result.target(),
            result.discovered(),
            job,
            scraper(job),
            () -> {
              throw new StorageUnavailableException(
                  "disk full", new java.io.IOException("No space left on device"));
            },
            clock);

    loop.scrapeOnce();

    assertThat(loop.status().health()).isEqualTo(Health.DOWN);
    assertThat(loop.status().lastError()).isEqualTo("appending scrape results: disk full");
  }
}
