package io.flightdeck.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.remote.RemoteWriteReceiver.Response;
import io.flightdeck.remote.WriteRequestEncoder.Message;
import io.flightdeck.remote.WriteRequestGenerators.GeneratedSeries;
import io.flightdeck.testkit.Coverage;
import io.flightdeck.testkit.Gen;
import io.flightdeck.testkit.Generators;
import io.flightdeck.testkit.Property;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Hostile or damaged bodies must be answered, never thrown: a 204, a 400 or a 413, with the
 * appender finished and the reported sample count matching what storage received.
 */
class RemoteWriteFuzzTest {
  /** Small enough that the larger generated requests take the 413 path. */
  private static final int MAX_BODY_BYTES = 1024;

  @Test
  void randomBodies() {
    Property.tries(2000)
        .check(in -> assertAnswered(in.draw("body", Generators.byteArrays(0, 512))));
  }

  /** Valid snappy around random bytes, so that they reach the protobuf decoder. */
  @Test
  void randomProtobuf() {
    Property.tries(2000)
        .check(
            in ->
                assertAnswered(
                    WriteRequestEncoder.snappy(in.draw("raw", Generators.byteArrays(0, 512)))));
  }

  @Test
  void damagedValidRequests() {
    Coverage coverage =
        Property.tries(2000)
            .check(
                in ->
                    in.classify(
                        outcome(
                            damagedAndAnswered(
                                in.draw("raw", requests()),
                                in.draw(
                                    "bitFlips",
                                    Generators.integers(0, Integer.MAX_VALUE).list(0, 6)),
                                in.draw("truncate", Generators.booleans()),
                                in.draw("keepPercent", Generators.integers(0, 99)),
                                in.draw("damageAfterCompression", Generators.booleans())))));

    // Guards the generator: damage must reach the decoder, some requests must survive it, and
    // the larger ones must meet the limit.
    assertThat(coverage.percentage("accepted")).isGreaterThan(2);
    assertThat(coverage.percentage("protobuf error")).isGreaterThan(20);
    assertThat(coverage.percentage("too large")).isGreaterThan(2);
  }

  private static String outcome(Response response) {
    return response.status() == 204
        ? "accepted"
        : response.status() == 413
            ? "too large"
            : response.body().startsWith("protobuf decode error") ? "protobuf error" : "other";
  }

  private static Response damagedAndAnswered(
      byte[] raw,
      List<Integer> bitFlips,
      boolean truncate,
      int keepPercent,
      boolean damageAfterCompression) {
    int keep = truncate ? keepPercent : 100;
    byte[] body =
        damageAfterCompression
            ? damage(WriteRequestEncoder.snappy(raw), bitFlips, keep)
            : WriteRequestEncoder.snappy(damage(raw, bitFlips, keep));

    return assertAnswered(body);
  }

  private static Gen<byte[]> requests() {
    return WriteRequestGenerators.seriesLists()
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
