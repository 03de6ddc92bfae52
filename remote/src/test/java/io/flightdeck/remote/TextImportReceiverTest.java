package io.flightdeck.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.remote.InMemoryAppendable.StoredSample;
import io.flightdeck.testkit.ManualClock;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextImportReceiverTest {
  private final InMemoryAppendable storage = new InMemoryAppendable();
  private final TextImportReceiver receiver =
      new TextImportReceiver(storage, new ManualClock(5_000));

  @Test
  void storesLinesWithExtraLabelsAndMillisecondTimestamps() {
    IngestResponse response =
        receiver.handle(
            "train_loss{run=\"a\",job=\"x\"} 0.25 1700000000000\ntrain_step 10\n"
                .getBytes(StandardCharsets.UTF_8),
            List.of("job=batch", "host=h1"));

    assertThat(response).isEqualTo(new IngestResponse(204, ""));
    assertThat(storage.samples())
        .containsExactly(
            StoredSample.of(
                Labels.of("__name__", "train_loss", "host", "h1", "job", "batch", "run", "a"),
                1_700_000_000_000L,
                0.25),
            StoredSample.of(
                Labels.of("__name__", "train_step", "host", "h1", "job", "batch"), 5_000, 10));
  }

  @Test
  void aBadLineRejectsTheWholeBody() {
    IngestResponse response =
        receiver.handle("ok 1\nbad value\n".getBytes(StandardCharsets.UTF_8), List.of());

    assertThat(response)
        .isEqualTo(
            new IngestResponse(
                400, "text format parsing error: invalid value \"value\" [line=2, column=10]"));
    assertThat(storage.samples()).isEmpty();
  }

  @Test
  void aMalformedExtraLabelIsRejected() {
    assertThat(receiver.handle(new byte[0], List.of("1x=y")))
        .isEqualTo(
            new IngestResponse(
                400, "extra_label must be name=value with a valid label name, got \"1x=y\""));
  }
}
