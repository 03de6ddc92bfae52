package io.flightdeck.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.config.Authorization;
import io.flightdeck.config.BasicAuth;
import io.flightdeck.config.HttpClientConfig;
import io.flightdeck.config.QueueConfig;
import io.flightdeck.config.RemoteWriteConfig;
import io.flightdeck.config.TlsConfig;
import io.flightdeck.model.Labels;
import io.flightdeck.model.relabel.RelabelAction;
import io.flightdeck.model.relabel.RelabelConfig;
import io.flightdeck.remote.InMemoryAppendable.StoredSample;
import io.flightdeck.storage.Appender;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RemoteWriteSenderTest {
  private static final QueueConfig FAST =
      new QueueConfig(
          10_000, 1, 1, 1_000, Duration.ofMillis(50), Duration.ofMillis(10), Duration.ofMillis(80));

  @TempDir Path dir;
  private final ScriptedEndpoint endpoint = newEndpoint();
  private RemoteWriteSender sender;

  private static ScriptedEndpoint newEndpoint() {
    try {
      return new ScriptedEndpoint();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @AfterEach
  void stop() throws Exception {
    if (sender != null) {
      sender.close();
    }
    endpoint.close();
  }

  private RemoteWriteConfig config(HttpClientConfig http, List<RelabelConfig> relabel) {
    return new RemoteWriteConfig(
        endpoint.uri(),
        "test",
        Duration.ofSeconds(5),
        Map.of("X-Scope-OrgID", "team-a"),
        http,
        relabel,
        FAST);
  }

  private RemoteWriteSender start(RemoteWriteConfig config) throws Exception {
    sender =
        new RemoteWriteSender(
            new RemoteWriteSenderOptions(
                config, dir.resolve("queue"), 64 << 20, Duration.ofMillis(300)));
    sender.start();
    return sender;
  }

  /** Commits samples {@code from..to-1} of {@code metric}, timestamp = value = index. */
  private static void write(RemoteWriteSender sender, String metric, int from, int to) {
    Appender appender = sender.appender();
    for (int i = from; i < to; i++) {
      appender.append(0, Labels.of("__name__", metric, "i", Integer.toString(i % 7)), i, i);
    }
    appender.commit();
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(10);
    }
  }

  @Test
  void sendsRelabelledBatchesWithProtocolHeadersAndBasicAuth() throws Exception {
    RelabelConfig dropSecret =
        RelabelConfig.builder()
            .sourceLabels("__name__")
            .regex("secret_.*")
            .action(RelabelAction.DROP)
            .build();
    RelabelConfig addCluster =
        RelabelConfig.builder().targetLabel("cluster").replacement("c1").build();
    start(
        config(
            new HttpClientConfig(new BasicAuth("agent", "s3cret", null), null, TlsConfig.DEFAULT),
            List.of(dropSecret, addCluster)));
    write(sender, "gpu_util", 0, 2_500);
    write(sender, "secret_metric", 0, 10);

    await("2500 samples stored", () -> endpoint.storage.samples().size() == 2_500);
    await("an empty queue", () -> sender.pendingSamples() == 0);
    List<StoredSample> stored = endpoint.storage.samples();
    assertThat(stored)
        .allSatisfy(
            s -> {
              assertThat(s.labels().get("cluster")).isEqualTo("c1");
              assertThat(s.labels().metricName()).isEqualTo("gpu_util");
              assertThat(Double.longBitsToDouble(s.valueBits())).isEqualTo(s.timestampMillis());
            });
    assertThat(stored.stream().mapToLong(StoredSample::timestampMillis).distinct().count())
        .isEqualTo(2_500);
    assertThat(sender.samplesSent()).isEqualTo(2_500);
    List<ScriptedEndpoint.Request> requests = endpoint.requests();
    assertThat(requests).allSatisfy(r -> assertThat(r.samples()).isLessThanOrEqualTo(1_000));
    assertThat(requests).hasSize(3);
    String basic =
        "Basic "
            + Base64.getEncoder().encodeToString("agent:s3cret".getBytes(StandardCharsets.UTF_8));
    assertThat(requests.get(0).headers())
        .containsEntry("authorization", basic)
        .containsEntry("content-encoding", "snappy")
        .containsEntry("content-type", "application/x-protobuf")
        .containsEntry("x-prometheus-remote-write-version", "0.1.0")
        .containsEntry("x-scope-orgid", "team-a")
        .containsKey("user-agent")
        .doesNotContainKey("retry-attempt");
  }

  @Test
  void retriesServerErrorsAndTooManyRequestsWithBackoffThenDelivers() throws Exception {
    endpoint.answer(500, 503, 429);
    start(config(HttpClientConfig.DEFAULT, List.of()));
    write(sender, "m", 0, 10);

    await("10 samples sent", () -> sender.samplesSent() == 10);
    assertThat(endpoint.storage.samples()).hasSize(10);
    assertThat(sender.retries()).isEqualTo(3);
    assertThat(sender.samplesRetried()).isEqualTo(30);
    assertThat(sender.samplesFailed()).isZero();
    List<ScriptedEndpoint.Request> requests = endpoint.requests();
    assertThat(requests)
        .extracting(ScriptedEndpoint.Request::status)
        .containsExactly(500, 503, 429, 204);
    assertThat(requests.get(3).headers()).containsEntry("retry-attempt", "3");
  }

  @Test
  void dropsABatchRefusedWith400AndSendsTheNext() throws Exception {
    endpoint.answer(400);
    start(config(HttpClientConfig.DEFAULT, List.of()));
    write(sender, "refused", 0, 5);
    await("the refused batch counted", () -> sender.samplesFailed() == 5);
    write(sender, "accepted", 5, 8);

    await("an empty queue", () -> sender.pendingSamples() == 0);
    assertThat(endpoint.storage.samples())
        .hasSize(3)
        .allSatisfy(s -> assertThat(s.labels().metricName()).isEqualTo("accepted"));
    assertThat(sender.retries()).isZero();
  }

  @Test
  void shardsSplitABatchBySeriesAndKeepEachSeriesInOrder() throws Exception {
    QueueConfig threeShards =
        new QueueConfig(
            10_000,
            3,
            3,
            1_000,
            Duration.ofMillis(50),
            Duration.ofMillis(10),
            Duration.ofMillis(80));
    start(
        new RemoteWriteConfig(
            endpoint.uri(),
            "sharded",
            Duration.ofSeconds(5),
            Map.of(),
            HttpClientConfig.DEFAULT,
            List.of(),
            threeShards));
    for (int round = 0; round < 20; round++) {
      Appender appender = sender.appender();
      for (int series = 0; series < 30; series++) {
        appender.append(
            0, Labels.of("__name__", "sharded", "s", Integer.toString(series)), round, round);
      }
      appender.commit();
    }

    await("600 samples sent", () -> sender.samplesSent() == 600);
    List<StoredSample> stored = endpoint.storage.samples();
    assertThat(stored).hasSize(600);
    Map<Labels, Long> last = new java.util.HashMap<>();
    for (StoredSample sample : stored) {
      Long previous = last.put(sample.labels(), sample.timestampMillis());
      assertThat(previous == null ? -1 : previous)
          .as("order of %s", sample.labels())
          .isLessThan(sample.timestampMillis());
    }
    assertThat(endpoint.requests())
        .as("every batch went out in more than one part")
        .hasSizeGreaterThan(1)
        .allSatisfy(r -> assertThat(r.samples()).isLessThan(600));
  }

  @Test
  void bearerTokenComesFromTheAuthorizationSection() throws Exception {
    start(
        config(
            new HttpClientConfig(
                null, new Authorization("Bearer", "t0ken", null), TlsConfig.DEFAULT),
            List.of()));
    write(sender, "m", 0, 1);
    await("one request", () -> !endpoint.requests().isEmpty());
    assertThat(endpoint.requests().get(0).headers()).containsEntry("authorization", "Bearer t0ken");
  }

  @Test
  void aRestartSendsWhatTheQueueKeptExactlyOnce() throws Exception {
    endpoint.answerAlways(503);
    start(config(HttpClientConfig.DEFAULT, List.of()));
    write(sender, "kept", 0, 300);
    write(sender, "kept", 300, 600);
    await("a retry", () -> sender.retries() > 0);
    sender.close();
    assertThat(endpoint.storage.samples()).isEmpty();

    endpoint.answerAlways(0);
    start(config(HttpClientConfig.DEFAULT, List.of()));
    assertThat(sender.pendingSamples()).isEqualTo(600);
    write(sender, "kept", 600, 700);

    await("700 samples stored", () -> endpoint.storage.samples().size() >= 700);
    await("an empty queue", () -> sender.pendingSamples() == 0);
    assertThat(endpoint.storage.samples())
        .extracting(StoredSample::timestampMillis)
        .doesNotHaveDuplicates()
        .hasSize(700);
  }
}
