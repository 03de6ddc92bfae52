package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flightdeck} with no subcommand, started in a folder as a new user would: the server on its
 * defaults, one line with the cockpit's address, {@code ./flightdeck.yml} when there is one.
 */
class MainJobTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path folder;

  @Test
  void inAnEmptyFolderItServesTheCockpitWithTheRulePacksAndPrintsOneLine() throws Exception {
    int port = LocalPorts.free();
    try (MainJob job = MainJob.start(folder, "--web.listen-address=127.0.0.1:" + port)) {
      assertThat(job.firstStdoutLine())
          .isEqualTo("Flightdeck cockpit: http://127.0.0.1:" + port + "/");

      HttpResponse<String> page = TestHttp.get(job.uri("/"));
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.headers().firstValue("Content-Type"))
          .hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
      assertThat(page.body()).contains("<html");
      assertThat(TestHttp.get(job.uri("/runs/any-run")).body()).isEqualTo(page.body());
      assertThat(TestHttp.get(job.uri("/no-such-page")).statusCode()).isEqualTo(404);

      JsonNode groups = rules(job).path("data").path("groups");
      assertThat(groups.findValuesAsText("name"))
          .contains("gpu_cluster_alerts", "flightdeck_gpu_health", "flightdeck_training");
      assertThat(groups.findValuesAsText("file"))
          .allSatisfy(file -> assertThat(file).contains("data/rule-packs/"));
      assertThat(folder.resolve("data/wal")).isDirectory();
      assertThat(folder.resolve("data/rule-packs/gpu.yml")).isRegularFile();

      assertThat(job.stop()).isZero();
      assertThat(job.stdoutLines()).hasSize(1);
    }
  }

  @Test
  void aFlightdeckYmlInTheFolderIsUsedAsTheConfigFile() throws Exception {
    FlightdeckCli.Result init = FlightdeckCli.run("init", "--dir=" + folder);
    assertThat(init.exitCode()).as(init.stderr()).isZero();

    int port = LocalPorts.free();
    try (MainJob job =
        MainJob.start(
            folder, "--web.listen-address=127.0.0.1:" + port, "--collector.enable=false")) {
      job.firstStdoutLine();
      String config =
          JSON.readTree(TestHttp.get(job.uri("/api/v1/status/config")).body())
              .path("data")
              .path("yaml")
              .asText();
      assertThat(config).contains("job_name: training").contains("run: my-first-run");
      JsonNode groups = rules(job).path("data").path("groups");
      assertThat(groups.findValuesAsText("file"))
          .isNotEmpty()
          .allSatisfy(file -> assertThat(file).contains("rules/").doesNotContain("rule-packs"));
    }
  }

  @Test
  void aBrokenFlightdeckYmlStopsItWithTheFileLineAndField() throws Exception {
    Files.writeString(
        folder.resolve("flightdeck.yml"),
        "scrape_configs:\n  - job_name: training\n    scrape_interval: often\n");

    try (MainJob job =
        MainJob.start(folder, "--web.listen-address=127.0.0.1:" + LocalPorts.free())) {
      assertThat(job.awaitExit()).isEqualTo(1);
      assertThat(job.stderr())
          .contains("flightdeck.yml:3:")
          .contains("scrape_configs[0].scrape_interval");
      assertThat(folder.resolve("data")).doesNotExist();
    }
  }

  @Test
  void initWritesAStarterConfigThatCheckConfigAcceptsAndNeverOverwrites() throws Exception {
    FlightdeckCli.Result init = FlightdeckCli.run("init", "--dir=" + folder);
    assertThat(init.exitCode()).as(init.stderr()).isZero();
    assertThat(folder.resolve("rules/gpu.yml")).isRegularFile();
    assertThat(folder.resolve("rules/training.yml")).isRegularFile();

    FlightdeckCli.Result check =
        FlightdeckCli.run("check", "config", folder.resolve("flightdeck.yml").toString());
    assertThat(check.exitCode()).as(check.stdout() + check.stderr()).isZero();
    FlightdeckCli.Result rulesCheck =
        FlightdeckCli.run(
            "check",
            "rules",
            folder.resolve("rules/gpu.yml").toString(),
            folder.resolve("rules/training.yml").toString());
    assertThat(rulesCheck.exitCode()).as(rulesCheck.stdout() + rulesCheck.stderr()).isZero();

    Files.writeString(folder.resolve("flightdeck.yml"), "# mine\n");
    FlightdeckCli.Result again = FlightdeckCli.run("init", "--dir=" + folder);
    assertThat(again.exitCode()).isEqualTo(1);
    assertThat(again.stderr()).contains("flightdeck.yml already exists");
    assertThat(Files.readString(folder.resolve("flightdeck.yml"))).isEqualTo("# mine\n");
  }

  @Test
  void noSubcommandOrServerFlagsAloneMeanTheServer() {
    assertThat(Main.withMainJob(new String[0])).containsExactly("server");
    assertThat(Main.withMainJob(new String[] {"--web.listen-address=127.0.0.1:1"}))
        .containsExactly("server", "--web.listen-address=127.0.0.1:1");
    assertThat(Main.withMainJob(new String[] {"--help"})).containsExactly("--help");
    assertThat(Main.withMainJob(new String[] {"-V"})).containsExactly("-V");
    assertThat(Main.withMainJob(new String[] {"query", "up"})).containsExactly("query", "up");
  }

  private static JsonNode rules(MainJob job) throws Exception {
    return JSON.readTree(TestHttp.get(job.uri("/api/v1/rules")).body());
  }

  /** {@code flightdeck ARGS} started in a folder, its output in files. */
  private static final class MainJob implements AutoCloseable {
    private final Process process;
    private final Path stdout;
    private final Path stderr;
    private int port;

    private MainJob(Process process, Path stdout, Path stderr) {
      this.process = process;
      this.stdout = stdout;
      this.stderr = stderr;
    }

    static MainJob start(Path folder, String... args) throws IOException {
      Path stdout = Files.createTempFile("flightdeck-main-job", ".out");
      Path stderr = Files.createTempFile("flightdeck-main-job", ".err");
      Process process =
          new ProcessBuilder(FlightdeckCli.command(args))
              .directory(folder.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
              .redirectOutput(stdout.toFile())
              .redirectError(stderr.toFile())
              .start();
      return new MainJob(process, stdout, stderr);
    }

    /** Waits for the first line (the server prints it once it listens); fails if it exits. */
    String firstStdoutLine() throws IOException, InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (System.nanoTime() < deadline) {
        List<String> lines = stdoutLines();
        if (!lines.isEmpty() && Files.readString(stdout).endsWith("\n")) {
          port = Integer.parseInt(lines.get(0).replaceAll(".*:(\\d+)/$", "$1"));
          return lines.get(0);
        }
        if (!process.isAlive()) {
          throw new AssertionError("flightdeck exited without printing its address\n" + stderr());
        }
        Thread.sleep(50);
      }
      throw new AssertionError("flightdeck printed no address within 120 s\n" + stderr());
    }

    URI uri(String path) throws IOException, InterruptedException {
      if (port == 0) {
        firstStdoutLine();
      }
      return URI.create("http://127.0.0.1:" + port + path);
    }

    int stop() throws InterruptedException {
      process.destroy();
      return awaitExit();
    }

    int awaitExit() throws InterruptedException {
      if (!process.waitFor(120, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("flightdeck did not exit within 120 s");
      }
      return process.exitValue();
    }

    List<String> stdoutLines() throws IOException {
      return Files.readAllLines(stdout, StandardCharsets.UTF_8);
    }

    String stderr() throws IOException {
      return Files.readString(stderr, StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
      process.destroyForcibly();
      Files.deleteIfExists(stdout);
      Files.deleteIfExists(stderr);
    }
  }
}
