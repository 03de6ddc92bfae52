package io.flightdeck.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.remote.RemoteWriteReceiver.Response;
import io.flightdeck.remote.WriteRequestArbitraries.GeneratedSeries;
import io.flightdeck.remote.WriteRequestEncoder.Message;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;

/**
 * Hostile or damaged bodies must be answered, never thrown: a 204, a 400 or a 413, with the
 * appender finished and the reported sample count matching what storage received.
 */
class RemoteWriteFuzzTest {
  /** Small enough that the larger generated requests take the 413 path. */
  private static final int MAX_BODY_BYTES = 1024;

  @Property(tries = 2000)
  void randomBodies(@ForAll @Size(max = 512) byte[] body) {
    assertAnswered(body);
  }

  /** Valid snappy around random bytes, so that they reach the protobuf decoder. */
  @Property(tries = 2000)
  void randomProtobuf(@ForAll @Size(max = 512) byte[] raw) {
    assertAnswered(WriteRequestEncoder.snappy(raw));
  }

  @Property(tries = 2000)
  void damagedValidRequests(
      @ForAll("requests") byte[] raw,
      @ForAll @Size(max = 6) List<@IntRange(min = 0) Integer> bitFlips,
      @ForAll boolean truncate,
      @ForAll @IntRange(min = 0, max = 99) int keepPercent,
      @ForAll boolean damageAfterCompression) {
    int keep = truncate ? keepPercent : 100;
    byte[] body =
        damageAfterCompression
            ? damage(WriteRequestEncoder.snappy(raw), bitFlips, keep)
            : WriteRequestEncoder.snappy(damage(raw, bitFlips, keep));

    Response response = assertAnswered(body);

    // Guards the generator: damage must reach the decoder, some requests must survive it, and
    // the larger ones must meet the limit.
    Statistics.collect(
        response.status() == 204
            ? "accepted"
            : response.status() == 413
                ? "too large"
                : response.body().startsWith("protobuf decode error") ? "protobuf error" : "other");
    Statistics.coverage(
        coverage -> {
          coverage.check("accepted").percentage(p -> p > 2);
          coverage.check("protobuf error").percentage(p -> p > 20);
          coverage.check("too large").percentage(p -> p > 2);
        });
  }

  @Provide
  Arbitrary<byte[]> requests() {
    return WriteRequestArbitraries.seriesLists()
        .map(
            series -> {
              Message request = new Message();
              for (GeneratedSeries s : series) {
                request.message(WriteRequestEncoder.REQUEST_TIMESERIES, s.encode());
              }
              return request.toByteArray();
            });
  }

  /** Flips the given bits (positions wrap around) and keeps a leading share of the bytes. */
  private static byte[] damage(byte[] bytes, List<Integer> bitFlips, int keepPercent) {
    byte[] damaged = Arrays.copyOf(bytes, bytes.length * keepPercent / 100);
    if (damaged.length > 0) {
      for (int bit : bitFlips) {
        int position = bit % (damaged.length * 8);
        damaged[position / 8] ^= (byte) (1 << (position % 8));
      }
    }
    return damaged;
  }

  private static Response assertAnswered(byte[] body) {
    InMemoryAppendable storage = new InMemoryAppendable();
    RemoteWriteReceiver receiver = new RemoteWriteReceiver(storage, MAX_BODY_BYTES);

    Response response = receiver.handle("application/x-protobuf", "snappy", body);

    assertThat(response.status()).isIn(204, 400, 413);
    assertThat(response.body()).isNotNull();
    assertThat(response.samplesWritten()).isEqualTo(storage.samples().size());
    assertThat(storage.unfinishedAppenders()).isZero();
    return response;
  }
}
