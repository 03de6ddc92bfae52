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
        .containsExactlyInAnyOrder(
            StoredSample.of(
                Labels.of("__name__", "train_loss", "host", "h1", "job", "batch", "run", "a"),
                1_700_000_000_000L,
                0.25),
            StoredSample.of(
                Labels.of("__name__", "train_step", "host", "h1", "job", "batch"), 5_000, 10));
  }

  /**
   * VictoriaMetrics's import takes a family split by others; so does this one, sample by sample.
   */
  @Test
  void aFamilySplitByAnotherIsStoredWhole() {
    IngestResponse response =
        receiver.handle(
            "# TYPE a counter\na 1\n# TYPE b gauge\nb 2\na{x=\"y\"} 3\n# TYPE a counter\na{x=\"z\"} 4\n"
                .getBytes(StandardCharsets.UTF_8),
            List.of());

    assertThat(response).isEqualTo(new IngestResponse(204, ""));
    assertThat(storage.samples())
        .containsExactly(
            StoredSample.of(Labels.of("__name__", "a"), 5_000, 1),
            StoredSample.of(Labels.of("__name__", "b"), 5_000, 2),
            StoredSample.of(Labels.of("__name__", "a", "x", "y"), 5_000, 3),
            StoredSample.of(Labels.of("__name__", "a", "x", "z"), 5_000, 4));
  }

  /**
   * A series' samples may come in any time order, with other series between them (an export of
   * several sources appended together); storage, which takes a series only forward in time, gets
   * them sorted, so all are stored.
   */
  @Test
  void aSeriesGivenOutOfTimeOrderIsStoredWhole() {
    IngestResponse response =
        receiver.handle(
            "a 3 3000\nb 1 1000\na 1 1000\nb 2 2000\na 2 2000\n".getBytes(StandardCharsets.UTF_8),
            List.of());

    assertThat(response).isEqualTo(new IngestResponse(204, ""));
    Labels a = Labels.of("__name__", "a");
    Labels b = Labels.of("__name__", "b");
    // In time order, and in body order at one time (the TSDB's refusal of a sample older than
    // its series' newest is checked against a real server in InterleavedIngestionEndToEndTest).
    assertThat(storage.samples())
        .containsExactly(
            StoredSample.of(b, 1000, 1),
            StoredSample.of(a, 1000, 1),
            StoredSample.of(b, 2000, 2),
            StoredSample.of(a, 2000, 2),
            StoredSample.of(a, 3000, 3));
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
