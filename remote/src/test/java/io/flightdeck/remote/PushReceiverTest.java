package io.flightdeck.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.MetricType;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.remote.InMemoryAppendable.StoredSample;
import io.flightdeck.testkit.ManualClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PushReceiverTest {
  private static final long START = 1_000_000;
  private static final Duration LOOKBACK = Duration.ofMinutes(5);
  private static final Labels A = Labels.of("__name__", "a", "job", "trainer");
  private static final Labels B = Labels.of("__name__", "b", "job", "trainer");
  private static final Labels PUSH_TIME =
      Labels.of("__name__", "push_time_seconds", "job", "trainer");
  private static final Labels FAILURE_TIME =
      Labels.of("__name__", "push_failure_time_seconds", "job", "trainer");

  @TempDir Path dir;
  private final InMemoryAppendable storage = new InMemoryAppendable();
  private final ManualClock clock = new ManualClock(START);
  private PushReceiver receiver;

  @BeforeEach
  void open() throws IOException {
    receiver = new PushReceiver(storage, clock, PushGroupStore.open(dir));
  }

  private static byte[] body(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** What an instant query at {@code time} sees of a series, as PromQL's lookback and staleness. */
  private OptionalDouble valueAt(Labels series, long time) {
    StoredSample latest = null;
    for (StoredSample sample : storage.samples()) {
      if (sample.labels().equals(series)
          && sample.timestampMillis() <= time
          && (latest == null || sample.timestampMillis() >= latest.timestampMillis())) {
        latest = sample;
      }
    }
    if (latest == null
        || latest.valueBits() == StaleMarker.BITS
        || latest.timestampMillis() <= time - LOOKBACK.toMillis()) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(Double.longBitsToDouble(latest.valueBits()));
  }

  /** The samples of the pushed bodies, without the push times. */
  private List<StoredSample> pushedSamples() {
    return storage.samples().stream()
        .filter(s -> !s.labels().metricName().startsWith("push_"))
        .toList();
  }

  private List<StoredSample> samplesAt(long time) {
    return storage.samples().stream().filter(s -> s.timestampMillis() == time).toList();
  }

  @Test
  void storesSamplesWithTheGroupingLabelsOverridingTheBody() {
    IngestResponse response =
        receiver.push(
            "job/trainer/instance/node-1",
            body(
                "# HELP train_loss Loss.\n# TYPE train_loss gauge\n"
                    + "train_loss{job=\"other\",run=\"a\"} 0.5\n"
                    + "steps_total 7\n"),
            true);

    assertThat(response).isEqualTo(new IngestResponse(200, ""));
    Labels grouping = Labels.of("instance", "node-1", "job", "trainer");
    assertThat(storage.samples())
        .containsExactly(
            StoredSample.of(
                Labels.of(
                    "__name__", "train_loss", "instance", "node-1", "job", "trainer", "run", "a"),
                START,
                0.5),
            StoredSample.of(
                Labels.of("__name__", "steps_total", "instance", "node-1", "job", "trainer"),
                START,
                7),
            StoredSample.of(
                grouping.toBuilder().set("__name__", "push_time_seconds").build(), START, 1000.0),
            StoredSample.of(
                grouping.toBuilder().set("__name__", "push_failure_time_seconds").build(),
                START,
                0));
    assertThat(storage.metadata())
        .containsEntry("train_loss", new MetricMetadata(MetricType.GAUGE, "Loss.", ""))
        .containsEntry(
            "push_time_seconds",
            new MetricMetadata(
                MetricType.GAUGE,
                "Last Unix time when changing this group in the Pushgateway succeeded.",
                ""));
  }

  @Test
  void decodesBase64AndPercentEncodedPathValues() {
    // "/data/run 1" in URL-safe base64 without padding, as prometheus_client sends it.
    receiver.push("job@base64/L2RhdGEvcnVuIDE/gpu/0%2C1", body("up 1\n"), false);

    assertThat(pushedSamples())
        .extracting(StoredSample::labels)
        .containsExactly(Labels.of("__name__", "up", "gpu", "0,1", "job", "/data/run 1"));
  }

  @Test
  void anEmptyPathValueRemovesTheBodyLabel() {
    receiver.push("job/trainer/instance@base64/=", body("up{instance=\"x\"} 1\n"), false);

    assertThat(pushedSamples())
        .extracting(StoredSample::labels)
        .containsExactly(Labels.of("__name__", "up", "job", "trainer"));
  }

  @Test
  void putReplacesTheGroupAndMarksDroppedSeriesStale() {
    receiver.push("job/trainer", body("a 1\nb 2\n"), true);
    clock.advance(Duration.ofSeconds(1));

    IngestResponse response = receiver.push("job/trainer", body("a 3\n"), true);

    assertThat(response.status()).isEqualTo(200);
    assertThat(samplesAt(START + 1000))
        .containsExactlyInAnyOrder(
            StoredSample.of(A, START + 1000, 3),
            StoredSample.of(PUSH_TIME, START + 1000, 1001.0),
            StoredSample.of(FAILURE_TIME, START + 1000, 0),
            StoredSample.of(B, START + 1000, StaleMarker.VALUE));

    clock.advance(Duration.ofSeconds(15));
    receiver.reemit();
    assertThat(valueAt(A, clock.millis())).hasValue(3);
    assertThat(valueAt(B, clock.millis())).isEmpty();
  }

  @Test
  void postMergesAndAPushedSeriesReplacesItsOldValue() {
    receiver.push("job/trainer", body("a 1\nb 2\n"), false);
    clock.advance(Duration.ofSeconds(1));

    assertThat(receiver.push("job/trainer", body("a 5\n"), false).status()).isEqualTo(200);

    assertThat(samplesAt(START + 1000))
        .doesNotContain(StoredSample.of(B, START + 1000, StaleMarker.VALUE));
    clock.advance(Duration.ofSeconds(15));
    receiver.reemit();
    assertThat(samplesAt(clock.millis()))
        .containsExactlyInAnyOrder(
            StoredSample.of(A, clock.millis(), 5),
            StoredSample.of(B, clock.millis(), 2),
            StoredSample.of(PUSH_TIME, clock.millis(), 1001.0),
            StoredSample.of(FAILURE_TIME, clock.millis(), 0));
  }

  /**
   * Pushgateway's POST replaces whole metric families: the series of a pushed family that the body
   * no longer has end, a histogram's by its TYPE, and the families the body does not bring stay.
   */
  @Test
  void postReplacesEveryFamilyItPushesAndKeepsTheOthers() {
    Labels oldA = A.toBuilder().set("x", "old").build();
    Labels newA = A.toBuilder().set("x", "new").build();
    Labels lowBucket = Labels.of("__name__", "h_bucket", "job", "trainer", "le", "1");
    Labels infBucket = Labels.of("__name__", "h_bucket", "job", "trainer", "le", "+Inf");
    Labels hSum = Labels.of("__name__", "h_sum", "job", "trainer");
    Labels hCount = Labels.of("__name__", "h_count", "job", "trainer");
    receiver.push(
        "job/trainer",
        body(
            "# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 2\nh_sum 3\n"
                + "h_count 2\na{x=\"old\"} 1\nb 2\n"),
        true);
    clock.advance(Duration.ofSeconds(1));

    IngestResponse response =
        receiver.push(
            "job/trainer",
            body(
                "# TYPE h histogram\nh_bucket{le=\"+Inf\"} 4\na{x=\"new\"} 5\nh_sum 6\n"
                    + "h_count 4\n"),
            false);

    assertThat(response).isEqualTo(new IngestResponse(200, ""));
    long now = START + 1000;
    assertThat(valueAt(oldA, now)).isEmpty();
    assertThat(valueAt(lowBucket, now)).isEmpty();
    assertThat(valueAt(newA, now)).hasValue(5);
    assertThat(valueAt(infBucket, now)).hasValue(4);
    assertThat(valueAt(hSum, now)).hasValue(6);
    assertThat(valueAt(hCount, now)).hasValue(4);
    assertThat(valueAt(B, now)).hasValue(2);
    clock.advance(Duration.ofSeconds(15));
    receiver.reemit();
    assertThat(pushedSamples().stream().filter(s -> s.timestampMillis() == clock.millis()))
        .extracting(StoredSample::labels)
        .containsExactlyInAnyOrder(newA, infBucket, hSum, hCount, B);
  }

  @Test
  void deleteEndsEverySeriesOfTheGroupAndItsPushTimes() {
    receiver.push("job/trainer", body("a 1\n"), false);
    receiver.push("job/trainer", body("b 2\n"), false);
    clock.advance(Duration.ofSeconds(1));

    assertThat(receiver.delete("job/trainer")).isEqualTo(new IngestResponse(202, ""));

    assertThat(samplesAt(START + 1000))
        .extracting(StoredSample::labels)
        .containsExactlyInAnyOrder(A, B, PUSH_TIME, FAILURE_TIME);
    assertThat(samplesAt(START + 1000))
        .allSatisfy(s -> assertThat(s.valueBits()).isEqualTo(StaleMarker.BITS));
    clock.advance(Duration.ofSeconds(15));
    receiver.reemit();
    assertThat(storage.samples())
        .allSatisfy(s -> assertThat(s.timestampMillis()).isLessThanOrEqualTo(START + 1000));
  }

  @Test
  void deleteOnlyTouchesItsOwnGroup() {
    receiver.push("job/trainer/instance/a", body("x 1\n"), true);
    receiver.push("job/trainer/instance/b", body("x 1\n"), true);
    clock.advance(Duration.ofSeconds(1));

    receiver.delete("job/trainer/instance/a");

    assertThat(samplesAt(START + 1000))
        .extracting(StoredSample::labels)
        .allSatisfy(labels -> assertThat(labels.get("instance")).isEqualTo("a"))
        .contains(Labels.of("__name__", "x", "instance", "a", "job", "trainer"));
    int stored = storage.samples().size();
    // A second delete has nothing left to end.
    assertThat(receiver.delete("job/trainer/instance/a").status()).isEqualTo(202);
    assertThat(storage.samples()).hasSize(stored);
  }

  @Test
  void pushTimeIsTheLastSuccessfulPushOfTheGroup() {
    receiver.push("job/trainer", body("a 1\n"), true);
    clock.advance(Duration.ofMinutes(2));
    receiver.push("job/trainer", body("b 1\n"), false);
    clock.advance(Duration.ofMinutes(2));

    receiver.reemit();

    assertThat(valueAt(PUSH_TIME, clock.millis())).hasValue((START + 120_000) / 1000.0);
    assertThat(valueAt(FAILURE_TIME, clock.millis())).hasValue(0);
  }

  @Test
  void reemissionKeepsPushedValuesVisiblePastTheLookback() {
    receiver.push("job/nightly", body("job_last_success_unixtime 1700000000\n"), true);
    Labels series = Labels.of("__name__", "job_last_success_unixtime", "job", "nightly");
    long tenMinutesLater = START + Duration.ofMinutes(10).toMillis();
    // Written once only, the value would be gone for a query ten minutes later.
    assertThat(valueAt(series, tenMinutesLater)).isEmpty();

    for (int i = 0; i < 40; i++) {
      clock.advance(Duration.ofSeconds(15));
      receiver.reemit();
    }

    assertThat(clock.millis()).isEqualTo(tenMinutesLater);
    assertThat(valueAt(series, tenMinutesLater)).hasValue(1.7e9);
  }

  @Test
  void aSampleWithATimestampIsRefusedNamingItsLineAndOnlyTheFailureTimeIsRecorded() {
    receiver.push("job/trainer", body("a 1\n"), true);
    clock.advance(Duration.ofSeconds(1));

    IngestResponse response =
        receiver.push("job/trainer", body("# TYPE a gauge\na 2\n\n  b 7 999\n"), true);

    assertThat(response)
        .isEqualTo(
            new IngestResponse(
                400,
                "pushed metrics are invalid or inconsistent with existing metrics: pushed metrics"
                    + " must not have timestamps, line 4 has one: \"  b 7 999\""));
    assertThat(valueAt(A, clock.millis())).hasValue(1);
    assertThat(valueAt(B, clock.millis())).isEmpty();
    assertThat(valueAt(PUSH_TIME, clock.millis())).hasValue(START / 1000.0);
    assertThat(valueAt(FAILURE_TIME, clock.millis())).hasValue((START + 1000) / 1000.0);

    // A refused first push creates the group with its failure time alone, as in Pushgateway.
    receiver.push("job/new", body("c 1 5\n"), true);
    assertThat(
            valueAt(
                Labels.of("__name__", "push_failure_time_seconds", "job", "new"), clock.millis()))
        .hasValue((START + 1000) / 1000.0);
    assertThat(valueAt(Labels.of("__name__", "push_time_seconds", "job", "new"), clock.millis()))
        .isEmpty();
    // A later success keeps the failure time.
    clock.advance(Duration.ofSeconds(1));
    receiver.push("job/trainer", body("a 3\n"), true);
    assertThat(valueAt(FAILURE_TIME, clock.millis())).hasValue((START + 1000) / 1000.0);
  }

  /** As Pushgateway's parser merges a family met again, every sample of a split family is kept. */
  @Test
  void aFamilySplitByAnotherKeepsEverySampleAndItsType() {
    IngestResponse response =
        receiver.push(
            "job/trainer",
            body("# TYPE a counter\na 1\n# TYPE b gauge\nb 2\na{x=\"y\"} 3\nb{x=\"z\"} 4\n"),
            true);

    assertThat(response).isEqualTo(new IngestResponse(200, ""));
    assertThat(pushedSamples())
        .containsExactly(
            StoredSample.of(A, START, 1),
            StoredSample.of(B, START, 2),
            StoredSample.of(A.toBuilder().set("x", "y").build(), START, 3),
            StoredSample.of(B.toBuilder().set("x", "z").build(), START, 4));
    assertThat(storage.metadata())
        .containsEntry("a", new MetricMetadata(MetricType.COUNTER, "", ""))
        .containsEntry("b", new MetricMetadata(MetricType.GAUGE, "", ""));
  }

  @Test
  void aSeriesPushedTwiceIsRefused() {
    IngestResponse response = receiver.push("job/trainer", body("a 1\na{job=\"x\"} 2\n"), true);

    assertThat(response.status()).isEqualTo(400);
    assertThat(response.body())
        .isEqualTo(
            "pushed metrics are invalid or inconsistent with existing metrics: series "
                + A
                + " is pushed twice, again on line 2");
    assertThat(pushedSamples()).isEmpty();
  }

  @Test
  void conflictingMetadataIsRefusedWithLineAndColumnAndStoresNothing() {
    receiver.push("job/trainer", body("a 1\n"), true);
    int stored = storage.samples().size();
    String[][] cases = {
      {
        "# TYPE b counter\nb 1\n# TYPE b gauge\n",
        "TYPE line for metric name \"b\" after its samples (from line 2) [line=3, column=8]"
      },
      {
        "# TYPE b counter\n# TYPE  b gauge\nb 1\n",
        "second TYPE line for metric name \"b\" with another type: gauge, but counter on line 1"
            + " [line=2, column=9]"
      },
      {
        "b 1\n# HELP b One.\n# HELP b Two.\n",
        "second HELP line for metric name \"b\" with another text than on line 2 [line=3, column=8]"
      },
      {"c 2\nb 1\n# TYPE b gauge\n", "TYPE line for metric name \"b\" after its samples"},
    };
    for (String[] c : cases) {
      IngestResponse response = receiver.push("job/trainer", body(c[0]), false);
      assertThat(response.status()).as(c[0]).isEqualTo(400);
      assertThat(response.body()).startsWith("text format parsing error: " + c[1]);
    }
    assertThat(storage.samples()).hasSize(stored);
    // Repeating the same metadata, or typing a family before its samples, is fine.
    assertThat(
            receiver
                .push(
                    "job/trainer",
                    body("# HELP b One.\n# TYPE b gauge\n# HELP b One.\n# TYPE b gauge\nb 1\n"),
                    false)
                .status())
        .isEqualTo(200);
  }

  @Test
  void aBadBodyIsRejectedWithItsLineAndStoresNothing() {
    receiver.push("job/trainer", body("a 1\n"), true);
    int stored = storage.samples().size();

    IngestResponse response = receiver.push("job/trainer", body("b 2\nc{ 3\n"), true);

    assertThat(response.status()).isEqualTo(400);
    assertThat(response.body())
        .isEqualTo("text format parsing error: expected label name, got \"3\" [line=2, column=4]");
    // Pushgateway answers a body it cannot parse without touching the group.
    assertThat(storage.samples()).hasSize(stored);
    assertThat(storage.unfinishedAppenders()).isZero();
  }

  @Test
  void badPathsAreRejected() {
    assertThat(receiver.push("job", body("a 1\n"), true))
        .isEqualTo(
            new IngestResponse(
                400, "grouping key must be job/<job>{/<label>/<value>}, got \"job\""));
    assertThat(receiver.push("instance/x", body("a 1\n"), true))
        .isEqualTo(new IngestResponse(400, "grouping key must start with job, got \"instance\""));
    assertThat(receiver.push("job/t/__x/y", body("a 1\n"), true))
        .isEqualTo(new IngestResponse(400, "improper label name \"__x\""));
    assertThat(receiver.delete("job/t/a@base64/!!"))
        .isEqualTo(new IngestResponse(400, "invalid base64 encoding for label a: \"!!\""));
    assertThat(storage.samples()).isEmpty();
  }

  @Test
  void aStorageOutageAnswers503AndKeepsTheGroupAsItWas() throws IOException {
    receiver.push("job/trainer", body("a 1\nb 1\n"), true);
    storage.failCommits();

    assertThat(receiver.push("job/trainer", body("a 2\n"), true).status()).isEqualTo(503);

    assertThat(storage.unfinishedAppenders()).isZero();
    assertThat(PushGroupStore.open(dir).loaded().get(0).series()).containsOnlyKeys(A, B);
  }

  @Test
  void aChangeIsDurableWhenItIsAnswered() throws IOException {
    assertThat(receiver.push("job/trainer", body("a 1\n"), true).status()).isEqualTo(200);
    assertThat(PushGroupStore.open(dir).loaded())
        .singleElement()
        .satisfies(group -> assertThat(group.series()).containsEntry(A, 1.0));

    assertThat(receiver.delete("job/trainer").status()).isEqualTo(202);
    assertThat(PushGroupStore.open(dir).loaded()).isEmpty();
  }

  @Test
  void aChangeThatCannotBeMadeDurableAnswers503AndIsNotKept() throws IOException {
    receiver.push("job/trainer", body("a 1\n"), true);
    Path blocker = Files.createDirectory(dir.resolve(PushGroupStore.FILE_NAME + ".tmp"));

    IngestResponse response = receiver.push("job/trainer", body("a 2\n"), true);

    assertThat(response.status()).isEqualTo(503);
    assertThat(response.body()).startsWith("push group store cannot be written: ");
    Files.delete(blocker);
    clock.advance(Duration.ofSeconds(15));
    receiver.reemit();
    assertThat(valueAt(A, clock.millis())).hasValue(1);
    assertThat(PushGroupStore.open(dir).loaded().get(0).series()).containsEntry(A, 1.0);
  }

  @Test
  void afterARestartGroupsAreReemittedAndLaterChangesEndSeriesPushedBefore() throws IOException {
    receiver.push("job/trainer", body("a 1\nb 2\n"), true);
    receiver.push("job/nightly", body("done 1\n"), false);
    Labels done = Labels.of("__name__", "done", "job", "nightly");

    clock.advance(Duration.ofMinutes(7));
    PushReceiver restarted = new PushReceiver(storage, clock, PushGroupStore.open(dir));
    restarted.reemit();

    assertThat(valueAt(A, clock.millis())).hasValue(1);
    assertThat(valueAt(B, clock.millis())).hasValue(2);
    assertThat(valueAt(done, clock.millis())).hasValue(1);
    assertThat(storage.metadata()).containsKey("push_failure_time_seconds");

    clock.advance(Duration.ofSeconds(15));
    restarted.push("job/trainer", body("a 3\n"), true);
    restarted.delete("job/nightly");

    assertThat(valueAt(A, clock.millis())).hasValue(3);
    assertThat(storage.samples()).contains(StoredSample.of(B, clock.millis(), StaleMarker.VALUE));
    assertThat(valueAt(B, clock.millis())).isEmpty();
    assertThat(valueAt(done, clock.millis())).isEmpty();
  }
}
