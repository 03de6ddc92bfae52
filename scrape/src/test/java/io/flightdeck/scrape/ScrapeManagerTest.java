package io.flightdeck.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.config.Config;
import io.flightdeck.model.Clock;
import io.flightdeck.model.StaleMarker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The manager with real threads and a real clock: scheduling, reloads and discovery. */
class ScrapeManagerTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final RecordingStorage storage = new RecordingStorage();
  private final ScrapeManager manager = new ScrapeManager(storage, Clock.system());
  private TargetServer good;
  private TargetServer slow;

  @TempDir Path dir;

  @BeforeEach
  void startTargets() throws Exception {
    good = new TargetServer();
    good.serve("/metrics", TargetServer.TEXT, "llm_train_step 1\n");
    slow = new TargetServer();
    slow.hang("/metrics");
  }

  @AfterEach
  void stop() {
    manager.close();
    good.close();
    slow.close();
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(20);
    }
  }

  private long ups(TargetServer server) {
    return storage.named("up").stream()
        .filter(s -> s.labels().get("instance").equals(server.address()) && s.value() == 1)
        .count();
  }

  private Config twoJobs() {
    return TestConfigs.load(
        """
        scrape_configs:
          - job_name: train
            scrape_interval: 50ms
            scrape_timeout: 50ms
            static_configs: [{targets: ['%s']}]
          - job_name: hanging
            scrape_interval: 5s
            scrape_timeout: 5s
            static_configs: [{targets: ['%s']}]
        """
            .formatted(good.address(), slow.address()));
  }

  @Test
  void aHangingTargetDoesNotDelayAnother() throws Exception {
    manager.apply(twoJobs());

    await("the hanging target to be asked", () -> !slow.requests().isEmpty());
    long before = ups(good);
    await("five scrapes of the good target", () -> ups(good) >= before + 5);

    TargetStatus hanging =
        manager.activeTargets().stream()
            .filter(t -> t.scrapePool().equals("hanging"))
            .findFirst()
            .orElseThrow();
    assertThat(hanging.health())
        .as("its first scrape is still in flight")
        .isEqualTo(Health.UNKNOWN);
  }

  @Test
  void reloadKeepsUnchangedLoopsAndARemovedJobGoesStale() throws Exception {
    manager.apply(twoJobs());
    List<ScrapeLoop> loops = manager.loops("train");
    assertThat(loops).hasSize(1);
    await("a scrape", () -> ups(good) >= 1);

    manager.apply(twoJobs());
    assertThat(manager.loops("train")).containsExactlyElementsOf(loops);

    manager.apply(TestConfigs.load("scrape_configs: []\n"));
    await(
        "staleness markers for the removed job",
        () ->
            storage.named("up").stream()
                .anyMatch(s -> s.labels().get("job").equals("train") && StaleMarker.is(s.value())));
    assertThat(manager.activeTargets()).isEmpty();
  }

  @Test
  void aChangedJobEndsTheSeriesOfTargetsAndMetricsItNoLongerScrapes() throws Exception {
    TargetServer other = new TargetServer();
    try {
      other.serve("/metrics", TargetServer.TEXT, "llm_train_step 7\n");
      String job =
          """
          scrape_configs:
            - job_name: train
              scrape_interval: %s
              scrape_timeout: 50ms
              static_configs: [{targets: [%s]}]
          %s""";
      manager.apply(
          TestConfigs.load(
              job.formatted("50ms", "'" + good.address() + "', '" + other.address() + "'", "")));
      await("both targets scraped", () -> ups(good) >= 1 && ups(other) >= 1);

      // The same job with another interval, one target fewer, and llm_train_step dropped.
      manager.apply(
          TestConfigs.load(
              job.formatted(
                  "60ms",
                  "'" + good.address() + "'",
                  "    metric_relabel_configs:\n"
                      + "      - {source_labels: [__name__], regex: llm_train_step, action: drop}\n")));
      await("the removed target's up to end", () -> staleUp(other));
      await(
          "the dropped metric to end on the kept target",
          () ->
              storage.named("llm_train_step").stream()
                  .anyMatch(
                      s ->
                          s.labels().get("instance").equals(good.address())
                              && StaleMarker.is(s.value())));
      long before = ups(good);
      await("the kept target scraped on", () -> ups(good) > before);
      assertThat(staleUp(good)).as("the kept target's series go on").isFalse();
    } finally {
      other.close();
    }
  }

  private boolean staleUp(TargetServer server) {
    return storage.named("up").stream()
        .anyMatch(
            s -> s.labels().get("instance").equals(server.address()) && StaleMarker.is(s.value()));
  }

  @Test
  void reportsActiveAndDroppedTargets() throws Exception {
    manager.apply(
        TestConfigs.load(
            """
            scrape_configs:
              - job_name: train
                scrape_interval: 100ms
                scrape_timeout: 100ms
                static_configs:
                  - targets: ['%s', 'dropped:1']
                relabel_configs:
                  - source_labels: [__address__]
                    regex: 'dropped:.*'
                    action: drop
            """
                .formatted(good.address())));

    await(
        "a successful scrape",
        () -> manager.activeTargets().stream().anyMatch(t -> t.health() == Health.UP));
    TargetStatus target = manager.activeTargets().get(0);
    assertThat(target.scrapeUrl()).isEqualTo("http://" + good.address() + "/metrics");
    assertThat(target.labels().get("instance")).isEqualTo(good.address());
    assertThat(target.discoveredLabels().get("__address__")).isEqualTo(good.address());
    assertThat(target.lastScrapeMillis()).isPositive();
    assertThat(target.scrapeInterval()).isEqualTo("100ms");
    assertThat(manager.droppedTargets())
        .singleElement()
        .satisfies(d -> assertThat(d.discoveredLabels().get("__address__")).isEqualTo("dropped:1"));
  }

  @Test
  void followsFileDiscovery() throws Exception {
    Path targets = dir.resolve("targets.yml");
    Files.writeString(targets, "- targets: ['%s']\n".formatted(good.address()));
    manager.apply(
        TestConfigs.load(
            """
            scrape_configs:
              - job_name: train
                scrape_interval: 100ms
                scrape_timeout: 100ms
                file_sd_configs:
                  - files: ['%s']
            """
                .formatted(dir.resolve("*.yml"))));
    await("the file's target", () -> ups(good) >= 1);

    TargetServer other = new TargetServer();
    try {
      other.serve("/metrics", TargetServer.TEXT, "llm_train_step 2\n");
      Files.writeString(targets, "- targets: ['%s']\n".formatted(other.address()));
      await("the new target", () -> ups(other) >= 1);
      await(
          "the old target to go",
          () ->
              manager.activeTargets().stream()
                  .noneMatch(t -> t.labels().get("instance").equals(good.address())));
      assertThat(manager.activeTargets().get(0).discoveredLabels().get("__meta_filepath"))
          .isEqualTo(targets.toString());
    } finally {
      other.close();
    }
  }

  @Test
  void tooManyTargetsFailEveryScrapeOfTheJob() throws Exception {
    manager.apply(
        TestConfigs.load(
            """
            scrape_configs:
              - job_name: train
                scrape_interval: 100ms
                scrape_timeout: 100ms
                target_limit: 1
                static_configs:
                  - targets: ['%s', '%s']
            """
                .formatted(good.address(), slow.address())));

    await(
        "both targets to report",
        () -> manager.activeTargets().stream().allMatch(t -> t.health() == Health.DOWN));
    assertThat(manager.activeTargets())
        .allSatisfy(
            t ->
                assertThat(t.lastError())
                    .isEqualTo("target_limit exceeded (number of targets: 2, limit: 1)"));
    assertThat(good.requests()).isEmpty();
  }
}
