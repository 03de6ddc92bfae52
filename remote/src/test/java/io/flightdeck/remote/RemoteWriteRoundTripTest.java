package io.flightdeck.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.remote.InMemoryAppendable.StoredSample;
import io.flightdeck.remote.RemoteWriteReceiver.Response;
import io.flightdeck.remote.WriteRequestArbitraries.GeneratedSeries;
import io.flightdeck.remote.WriteRequestEncoder.Message;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/** Whatever valid series a sender writes, storage receives exactly those samples. */
class RemoteWriteRoundTripTest {

  @Property(tries = 500)
  void receivedSamplesAreExactlyTheSentOnes(@ForAll("seriesLists") List<GeneratedSeries> sent) {
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
    // Guards the generator: the field order a one-pass decoder gets wrong must come up often.
    Statistics.label("a label after a sample")
        .collect(sent.stream().anyMatch(GeneratedSeries::labelAfterSample));
    Statistics.label("a label after a sample")
        .coverage(coverage -> coverage.check(true).percentage(p -> p > 20));
  }

  @Provide
  Arbitrary<List<GeneratedSeries>> seriesLists() {
    return WriteRequestArbitraries.seriesLists();
  }
}
