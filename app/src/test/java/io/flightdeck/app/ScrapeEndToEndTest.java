package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server scraping real peers from a flightdeck.yml: a Python training job using Debian's
 * prometheus_client, and Debian's node_exporter; then reloads of that file.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ScrapeEndToEndTest {
  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;

  private Process trainer;
  private Process nodeExporter;
  private FlightdeckServerProcess server;
  private Path config;
  private int trainerPort;
  private int nodePort;

  @BeforeAll
  void start() throws Exception {
    trainerPort = LocalPorts.free();
    Path script = Path.of(getClass().getResource("/scrape/training_job.py").toURI());
    trainer =
        new ProcessBuilder("/usr/bin/python3", script.toString(), Integer.toString(trainerPort))
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("trainer.log").toFile())
            .start();
    nodePort = LocalPorts.free();
    nodeExporter =
        new ProcessBuilder(
                "/usr/bin/prometheus-node-exporter", "--web.listen-address=127.0.0.1:" + nodePort)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("node_exporter.log").toFile())
            .start();
    config = dir.resolve("flightdeck.yml");
    Files.writeString(config, bothJobs());
    server =
        FlightdeckServerProcess.start(
                dir.resolve("data"), dir.resolve("server.log"), "--config.file=" + config)
            .awaitReady();
  }

  private String bothJobs() {
    return """
        global:
          scrape_interval: 1s
        scrape_configs:
          - job_name: ms-swift-lora
            static_configs:
              - targets: ['127.0.0.1:%d']
          - job_name: node
            static_configs:
              - targets: ['127.0.0.1:%d']
        """
        .formatted(trainerPort, nodePort);
  }

  @AfterAll
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    for (Process p : new Process[] {trainer, nodeExporter}) {
      if (p != null) {
        p.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      }
    }
  }

  private JsonNode get(String path) throws IOException, InterruptedException {
    HttpResponse<String> response = TestHttp.get(server.uri(path));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body()).path("data");
  }

  /** The result vector of an instant query. */
  private JsonNode query(String promql) throws IOException, InterruptedException {
    return get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8))
        .path("result");
  }

  private double single(String promql) throws IOException, InterruptedException {
    JsonNode result = query(promql);
    assertThat(result).as("%s: %s", promql, result).hasSize(1);
    return Double.parseDouble(result.get(0).path("value").get(1).asText());
  }

  private void awaitNonEmpty(String promql) throws Exception {
    Await.until(WAIT, promql + " to return data", () -> !query(promql).isEmpty());
  }

  @Test
  @Order(1)
  void aPythonTrainingJobIsScrapedAndQueryable() throws Exception {
    awaitNonEmpty("llm_train_step{job=\"ms-swift-lora\"} >= 2");

    assertThat(single("up{job=\"ms-swift-lora\"}")).isEqualTo(1);
    assertThat(single("llm_train_loss{job=\"ms-swift-lora\"}")).isEqualTo(1.25);
    JsonNode memory = query("gpu_memory_used_mb");
    assertThat(memory).hasSize(1);
    assertThat(memory.get(0).path("metric").path("device").asText()).isEqualTo("cuda:0");
    assertThat(memory.get(0).path("metric").path("instance").asText())
        .isEqualTo("127.0.0.1:" + trainerPort);
    assertThat(memory.get(0).path("value").get(1).asText()).isEqualTo("40960");
    // The step counter advances between scrapes.
    double first = single("llm_train_step{job=\"ms-swift-lora\"}");
    Await.until(
        WAIT,
        "the step counter to advance",
        () -> single("llm_train_step{job=\"ms-swift-lora\"}") > first);
    assertThat(single("scrape_samples_scraped{job=\"ms-swift-lora\"}")).isPositive();
  }

  @Test
  @Order(2)
  void nodeExporterIsScraped() throws Exception {
    awaitNonEmpty("up{job=\"node\"} == 1");

    assertThat(single("count(node_cpu_seconds_total{job=\"node\"}) > 0")).isPositive();
  }

  @Test
  @Order(3)
  void targetsApiShowsBothTargetsHealthy() throws Exception {
    Await.until(
        WAIT,
        "both targets up",
        () -> {
          JsonNode active = get("/api/v1/targets").path("activeTargets");
          return active.size() == 2
              && active.get(0).path("health").asText().equals("up")
              && active.get(1).path("health").asText().equals("up");
        });
    JsonNode active = get("/api/v1/targets?state=active").path("activeTargets");
    JsonNode trainerTarget = active.get(0);
    assertThat(trainerTarget.path("scrapePool").asText()).isEqualTo("ms-swift-lora");
    assertThat(trainerTarget.path("scrapeUrl").asText())
        .isEqualTo("http://127.0.0.1:" + trainerPort + "/metrics");
    assertThat(trainerTarget.path("scrapeInterval").asText()).isEqualTo("1s");
    assertThat(trainerTarget.path("lastError").asText()).isEmpty();
    JsonNode metadata =
        get(
            "/api/v1/targets/metadata?metric=llm_train_loss&match_target="
                + URLEncoder.encode("{job=\"ms-swift-lora\"}", StandardCharsets.UTF_8));
    assertThat(metadata).hasSize(1);
    assertThat(metadata.get(0).path("type").asText()).isEqualTo("gauge");
    assertThat(metadata.get(0).path("help").asText()).isEqualTo("Current training loss.");
  }

  @Test
  @Order(4)
  void aBadReloadIsRefusedAndAGoodOneApplied() throws Exception {
    Files.writeString(config, "scrape_configs:\n  - job_name: x\n    scrape_interval: often\n");
    HttpResponse<String> refused = TestHttp.post(server.uri("/-/reload"), new byte[0]);
    assertThat(refused.statusCode()).isEqualTo(500);
    assertThat(refused.body())
        .startsWith("failed to reload config: " + config + ":3:")
        .contains("scrape_configs[0].scrape_interval");
    assertThat(get("/api/v1/targets").path("activeTargets")).hasSize(2);

    Files.writeString(
        config,
        """
        global:
          scrape_interval: 1s
        scrape_configs:
          - job_name: node
            static_configs:
              - targets: ['127.0.0.1:%d']
        """
            .formatted(nodePort));
    assertThat(TestHttp.post(server.uri("/-/reload"), new byte[0]).statusCode()).isEqualTo(200);
    JsonNode active = get("/api/v1/targets").path("activeTargets");
    assertThat(active).hasSize(1);
    assertThat(active.get(0).path("scrapePool").asText()).isEqualTo("node");
    // The training job's series end with staleness markers, so they drop out of queries at once.
    Await.until(
        WAIT,
        "the removed job's series to go stale",
        () -> query("up{job=\"ms-swift-lora\"}").isEmpty());
  }

  /** The server child of this JVM, told apart from other children by its data directory. */
  private long serverPid() {
    String dataFlag = "--storage.tsdb.path=" + dir.resolve("data");
    return ProcessHandle.current()
        .children()
        .filter(h -> commandLine(h.pid()).contains(dataFlag))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no server child process"))
        .pid();
  }

  /** From /proc, as ProcessHandle.Info leaves out very long command lines. */
  private static String commandLine(long pid) {
    try {
      return new String(
          Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
          StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  @Test
  @Order(5)
  void sighupReloadsTheFile() throws Exception {
    Files.writeString(config, bothJobs());
    Process kill =
        new ProcessBuilder("kill", "-HUP", Long.toString(serverPid())).inheritIO().start();
    assertThat(kill.waitFor()).isZero();

    Await.until(
        WAIT,
        "both jobs after SIGHUP",
        () -> get("/api/v1/targets").path("activeTargets").size() == 2);
  }
}
