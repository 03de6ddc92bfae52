package io.flightdeck.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.MetricType;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.remote.InMemoryAppendable.StoredSample;
import io.flightdeck.testkit.ManualClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PushReceiverTest {
  private final InMemoryAppendable storage = new InMemoryAppendable();
  private final ManualClock clock = new ManualClock(1_000_000);
  private final PushReceiver receiver = new PushReceiver(storage, clock);

  private static byte[] body(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void storesSamplesWithTheGroupingLabelsOverridingTheBody() {
    IngestResponse response =
        receiver.push(
            "job/trainer/instance/node-1",
            body(
                "# HELP train_loss Loss.\n# TYPE train_loss gauge\n"
                    + "train_loss{job=\"other\",run=\"a\"} 0.5\n"
                    + "steps_total 7 999\n"),
            true);

    assertThat(response).isEqualTo(new IngestResponse(200, ""));
    assertThat(storage.samples())
        .containsExactly(
            StoredSample.of(
                Labels.of(
                    "__name__", "train_loss", "instance", "node-1", "job", "trainer", "run", "a"),
                1_000_000,
                0.5),
            StoredSample.of(
                Labels.of("__name__", "steps_total", "instance", "node-1", "job", "trainer"),
                999,
                7));
    assertThat(storage.metadata())
        .containsEntry("train_loss", new MetricMetadata(MetricType.GAUGE, "Loss.", ""));
  }

  @Test
  void decodesBase64AndPercentEncodedPathValues() {
    // "/data/run 1" in URL-safe base64 without padding, as prometheus_client sends it.
    receiver.push("job@base64/L2RhdGEvcnVuIDE/gpu/0%2C1", body("up 1\n"), false);

    assertThat(storage.samples())
        .extracting(StoredSample::labels)
        .containsExactly(Labels.of("__name__", "up", "gpu", "0,1", "job", "/data/run 1"));
  }

  @Test
  void anEmptyPathValueRemovesTheBodyLabel() {
    receiver.push("job/trainer/instance@base64/=", body("up{instance=\"x\"} 1\n"), false);

    assertThat(storage.samples())
        .extracting(StoredSample::labels)
        .containsExactly(Labels.of("__name__", "up", "job", "trainer"));
  }

  @Test
  void putReplacesTheGroupAndMarksDroppedSeriesStale() {
    receiver.push("job/trainer", body("a 1\nb 2\n"), true);
    clock.advance(Duration.ofSeconds(1));

    IngestResponse response = receiver.push("job/trainer", body("a 3\n"), true);

    assertThat(response.status()).isEqualTo(200);
    assertThat(storage.samples())
        .endsWith(
            StoredSample.of(Labels.of("__name__", "a", "job", "trainer"), 1_001_000, 3),
            StoredSample.of(
                Labels.of("__name__", "b", "job", "trainer"), 1_001_000, StaleMarker.VALUE));
  }

  @Test
  void postAddsToTheGroupWithoutEndingAnything() {
    receiver.push("job/trainer", body("a 1\n"), false);
    clock.advance(Duration.ofSeconds(1));
    receiver.push("job/trainer", body("b 2\n"), false);
    clock.advance(Duration.ofSeconds(1));

    receiver.delete("job/trainer");

    assertThat(storage.samples()).hasSize(4);
    assertThat(storage.samples().subList(2, 4))
        .extracting(StoredSample::labels)
        .containsExactlyInAnyOrder(
            Labels.of("__name__", "a", "job", "trainer"),
            Labels.of("__name__", "b", "job", "trainer"));
    assertThat(storage.samples().subList(2, 4))
        .allSatisfy(s -> assertThat(s.valueBits()).isEqualTo(StaleMarker.BITS))
        .allSatisfy(s -> assertThat(s.timestampMillis()).isEqualTo(1_002_000));
  }

  @Test
  void deleteOnlyTouchesItsOwnGroup() {
    receiver.push("job/trainer/instance/a", body("x 1\n"), true);
    receiver.push("job/trainer/instance/b", body("x 1\n"), true);

    IngestResponse response = receiver.delete("job/trainer/instance/a");

    assertThat(response).isEqualTo(new IngestResponse(202, ""));
    assertThat(storage.samples()).hasSize(3);
    assertThat(storage.samples().get(2).labels())
        .isEqualTo(Labels.of("__name__", "x", "instance", "a", "job", "trainer"));
    // A second delete has nothing left to end.
    receiver.delete("job/trainer/instance/a");
    assertThat(storage.samples()).hasSize(3);
  }

  @Test
  void aBadBodyIsRejectedWithItsLineAndStoresNothing() {
    receiver.push("job/trainer", body("a 1\n"), true);

    IngestResponse response = receiver.push("job/trainer", body("b 2\nc{ 3\n"), true);

    assertThat(response.status()).isEqualTo(400);
    assertThat(response.body())
        .isEqualTo("text format parsing error: expected label name, got \"3\" [line=2, column=4]");
    assertThat(storage.samples()).hasSize(1);
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
  void aStorageOutageAnswers503AndFinishesTheAppender() {
    receiver.push("job/trainer", body("a 1\nb 1\n"), true);
    storage.failCommits();

    assertThat(receiver.push("job/trainer", body("a 2\n"), true).status()).isEqualTo(503);
    assertThat(storage.unfinishedAppenders()).isZero();
  }
}
