package io.flightdeck.remote;

import static io.flightdeck.remote.WriteRequestEncoder.REQUEST_TIMESERIES;
import static io.flightdeck.remote.WriteRequestEncoder.SERIES_LABELS;
import static io.flightdeck.remote.WriteRequestEncoder.SERIES_SAMPLES;
import static io.flightdeck.remote.WriteRequestEncoder.sample;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.remote.InMemoryAppendable.StoredSample;
import io.flightdeck.remote.RemoteWriteReceiver.Response;
import io.flightdeck.remote.WriteRequestEncoder.Message;
import org.junit.jupiter.api.Test;

/** A series with invalid UTF-8 is skipped and counted, as Prometheus does; the rest is stored. */
class InvalidUtf8Test {
  private final InMemoryAppendable storage = new InMemoryAppendable();
  private final RemoteWriteReceiver receiver = new RemoteWriteReceiver(storage, 1 << 20);

  private static Message label(byte[] name, byte[] value) {
    return new Message().bytesField(1, name).bytesField(2, value);
  }

  @Test
  void onlyTheBrokenSeriesIsSkipped() {
    Message good =
        new Message()
            .message(SERIES_LABELS, label("__name__".getBytes(), "up".getBytes()))
            .message(SERIES_SAMPLES, sample(1, 1000));
    Message broken =
        new Message()
            .message(SERIES_LABELS, label("__name__".getBytes(), new byte[] {'u', (byte) 0xff}))
            .message(SERIES_SAMPLES, sample(2, 1000));
    byte[] body =
        WriteRequestEncoder.snappy(
            new Message().message(REQUEST_TIMESERIES, good).message(REQUEST_TIMESERIES, broken));

    Response response = receiver.handle("application/x-protobuf", "snappy", body);

    assertThat(response.status()).isEqualTo(400);
    assertThat(response.body())
        .endsWith(
            "the others were stored: invalid metric name or labels, got {__name__=\"u\uFFFD\"}");
    assertThat(storage.samples())
        .containsExactly(StoredSample.of(Labels.of("__name__", "up"), 1000, 1));
    assertThat(receiver.invalidSeries()).isEqualTo(1);
  }
}
