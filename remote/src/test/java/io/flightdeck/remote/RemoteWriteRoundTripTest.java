package io.flightdeck.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.remote.InMemoryAppendable.StoredSample;
import io.flightdeck.remote.RemoteWriteReceiver.Response;
import io.flightdeck.remote.WriteRequestEncoder.Message;
import io.flightdeck.remote.WriteRequestGenerators.GeneratedSeries;
import io.flightdeck.testkit.Coverage;
import io.flightdeck.testkit.Property;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Whatever valid series a sender writes, storage receives exactly those samples. */
class RemoteWriteRoundTripTest {

  @Test
  void receivedSamplesAreExactlyTheSentOnes() {
    Coverage coverage =
        Property.tries(500)
            .check(
                in -> {
                  List<GeneratedSeries> sent =
                      in.draw("sent", WriteRequestGenerators.seriesLists());
                  receivesExactly(sent);
                  if (sent.stream().anyMatch(GeneratedSeries::labelAfterSample)) {
                    in.classify("a label after a sample");
                  }
                });

    // Guards the generator: the field order a one-pass decoder gets wrong must come up often.
    assertThat(coverage.percentage("a label after a sample")).isGreaterThan(20);
  }

  private static void receivesExactly(List<GeneratedSeries> sent) {
    InMemoryAppendable storage = new InMemoryAppendable();
    RemoteWriteReceiver receiver = new RemoteWriteReceiver(storage, 1 << 20);
    Message request = new Message();
    sent.forEach(s -> request.message(WriteRequestEncoder.REQUEST_TIMESERIES, s.encode()));
    List<StoredSample> expected = sent.stream().flatMap(s -> s.expected().stream()).toList();

    Response response =
        receiver.handle("application/x-protobuf", "snappy", WriteRequestEncoder.snappy(request));

    assertThat(response).isEqualTo(new Response(204, "", expected.size()));
    assertThat(storage.samples()).containsExactlyElementsOf(expected);
    assertThat(receiver.invalidSeries()).isZero();
    assertThat(storage.unfinishedAppenders()).isZero();
  }
}
