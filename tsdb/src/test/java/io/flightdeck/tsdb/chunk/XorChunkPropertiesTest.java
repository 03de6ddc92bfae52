package io.flightdeck.tsdb.chunk;

import static io.flightdeck.testkit.Generators.bytes;
import static io.flightdeck.testkit.Generators.constant;
import static io.flightdeck.testkit.Generators.doubles;
import static io.flightdeck.testkit.Generators.frequency;
import static io.flightdeck.testkit.Generators.integers;
import static io.flightdeck.testkit.Generators.longs;
import static io.flightdeck.testkit.Generators.of;
import static io.flightdeck.testkit.Generators.weighted;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.testkit.Gen;
import io.flightdeck.testkit.Property;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every sequence of samples survives the XOR encoding bit for bit. */
class XorChunkPropertiesTest {
  record Sample(long delta, double value) {}

  @Test
  void roundTripsEverySampleExactly() {
    Property.tries(500)
        .check(in -> roundTrip(in.draw("start", longs()), in.draw("samples", samples(1, 400))));
  }

  private static void roundTrip(long start, List<Sample> samples) {
    XorEncoder encoder = new XorEncoder();
    long[] times = new long[samples.size()];
    long t = start;
    for (int i = 0; i < samples.size(); i++) {
      t += samples.get(i).delta();
      times[i] = t;
      encoder.append(t, samples.get(i).value());
    }
    byte[] bytes = encoder.toBytes();
    XorIterator it = new XorIterator().reset(bytes, 0, bytes.length, encoder.count());
    for (int i = 0; i < samples.size(); i++) {
      assertThat(it.next()).isTrue();
      assertThat(it.timestamp()).isEqualTo(times[i]);
      assertThat(Double.doubleToRawLongBits(it.value()))
          .isEqualTo(Double.doubleToRawLongBits(samples.get(i).value()));
    }
    assertThat(it.next()).isFalse();
    assertThat(it.seek(Long.MIN_VALUE)).as("an exhausted iterator stays exhausted").isFalse();
  }

  /**
   * The batch encoder writes the streaming encoder's bytes exactly, at any offset into its arrays
   * and from one chunk to the next in the same buffer.
   */
  @Test
  void theBatchEncoderWritesTheStreamingEncodersBytes() {
    Property.tries(500)
        .check(
            in ->
                batchEncodes(
                    in.draw("start", longs()),
                    in.draw("samples", samples(1, 400)),
                    in.draw("before", samples(1, 50))));
  }

  private static void batchEncodes(long start, List<Sample> samples, List<Sample> before) {
    XorBatchEncoder batch = new XorBatchEncoder();
    for (List<Sample> chunk : List.of(samples, before, samples)) {
      int from = chunk.size() % 3;
      long[] times = new long[from + chunk.size()];
      double[] values = new double[from + chunk.size()];
      XorEncoder streaming = new XorEncoder();
      long t = start;
      for (int i = 0; i < chunk.size(); i++) {
        t += chunk.get(i).delta();
        times[from + i] = t;
        values[from + i] = chunk.get(i).value();
        streaming.append(t, chunk.get(i).value());
      }
      batch.encode(times, values, from, chunk.size());
      assertThat(batch.toBytes()).isEqualTo(streaming.toBytes());
      assertThat(batch.byteLength()).isEqualTo(streaming.byteLength());
      assertThat(batch.byteLength()).isLessThanOrEqualTo(XorBatchEncoder.maxBytes(chunk.size()));
    }
  }

  /**
   * Timestamps whose intervals swing by more than 2^20, and values that change in 63 bits, by turns
   * the highest and the lowest, so that no change fits the window of the one before: each sample
   * takes nearly the most bits, and the chunk stays within {@link XorBatchEncoder#maxBytes}.
   */
  @Test
  void theWorstChunkFitsItsBound() {
    int n = 1024;
    long[] times = new long[n];
    double[] values = new double[n];
    long t = 0;
    long bits = 0x0123456789ABCDEFL;
    for (int i = 0; i < n; i++) {
      t += i % 2 == 0 ? 1 : 1L << 40;
      times[i] = t;
      bits ^= i % 2 == 0 ? 0xFFFFFFFFFFFFFFFEL : 0x7FFFFFFFFFFFFFFFL;
      values[i] = Double.longBitsToDouble(bits);
    }
    XorBatchEncoder batch = new XorBatchEncoder();
    batch.encode(times, values, 0, n);
    assertThat(batch.byteLength()).isLessThanOrEqualTo(XorBatchEncoder.maxBytes(n));
    assertThat(batch.byteLength()).isGreaterThan(XorBatchEncoder.maxBytes(n) * 9 / 10);
    byte[] copied = new byte[batch.byteLength() + 3];
    batch.copyTo(copied, 3);
    assertThat(java.util.Arrays.copyOfRange(copied, 3, copied.length)).isEqualTo(batch.toBytes());
  }

  @Test
  void seekFindsTheFirstSampleAtOrAfter() {
    Property.tries(200)
        .check(in -> seeks(in.draw("samples", samples(1, 200)), in.draw("probe", longs())));
  }

  private static void seeks(List<Sample> samples, long probe) {
    XorEncoder encoder = new XorEncoder();
    long t = 0;
    for (Sample s : samples) {
      t += Math.max(1, Math.abs(s.delta() % 100_000));
      encoder.append(t, s.value());
    }
    long target = Math.floorMod(probe, t + 2);
    byte[] bytes = encoder.toBytes();
    XorIterator it = new XorIterator().reset(bytes, 0, bytes.length, encoder.count());
    boolean found = it.seek(target);
    long first = firstAtOrAfter(encoder, bytes, target);
    assertThat(found).isEqualTo(first != Long.MIN_VALUE);
    if (found) {
      assertThat(it.timestamp()).isEqualTo(first);
    }
  }

  @Test
  void aChunkCutShortGivesItsWholeSamplesThenReportsCorruption() {
    Property.tries(300)
        .check(
            in ->
                cutShort(
                    in.draw("samples", samples(2, 100)),
                    in.draw("cutSeed", longs()),
                    in.draw("neighbour", bytes())));
  }

  private static void cutShort(List<Sample> samples, long cutSeed, byte neighbour) {
    XorEncoder encoder = new XorEncoder();
    long t = 0;
    for (Sample s : samples) {
      t += s.delta();
      encoder.append(t, s.value());
    }
    byte[] whole = encoder.toBytes();
    int cut = (int) Math.floorMod(cutSeed, (long) whole.length);
    // The chunk sits between other bytes, as in a chunk file: the decoder must not read past
    // its end into them.
    byte[] file = new byte[whole.length + 24];
    java.util.Arrays.fill(file, neighbour);
    System.arraycopy(whole, 0, file, 8, cut);
    XorIterator reference = new XorIterator().reset(whole, 0, whole.length, encoder.count());
    XorIterator damaged = new XorIterator().reset(file, 8, cut, encoder.count());
    int decoded = 0;
    try {
      while (damaged.next()) {
        assertThat(reference.next()).isTrue();
        assertThat(damaged.timestamp()).isEqualTo(reference.timestamp());
        assertThat(Double.doubleToRawLongBits(damaged.value()))
            .isEqualTo(Double.doubleToRawLongBits(reference.value()));
        decoded++;
      }
      throw new AssertionError("a chunk cut at byte " + cut + " decoded every sample");
    } catch (ChunkCorruptException expected) {
      assertThat(decoded).isLessThan(encoder.count());
    }
  }

  private static long firstAtOrAfter(XorEncoder encoder, byte[] bytes, long target) {
    XorIterator scan = new XorIterator().reset(bytes, 0, bytes.length, encoder.count());
    while (scan.next()) {
      if (scan.timestamp() >= target) {
        return scan.timestamp();
      }
    }
    return Long.MIN_VALUE;
  }

  /** Deltas mostly a regular scrape interval; values plain, whole, special or any bit pattern. */
  private static Gen<List<Sample>> samples(int minSize, int maxSize) {
    Gen<Long> deltas =
        frequency(
            weighted(5, constant(15_000L)),
            weighted(2, longs(1, 60_000)),
            weighted(1, longs(1, Long.MAX_VALUE / 1024)),
            weighted(1, constant(1L)));
    Gen<Double> values =
        frequency(
            weighted(3, doubles()),
            weighted(2, integers(0, 100).map(Integer::doubleValue)),
            weighted(
                2,
                of(
                    Double.NaN,
                    Double.longBitsToDouble(0x7ff0000000000002L),
                    Double.POSITIVE_INFINITY,
                    Double.NEGATIVE_INFINITY,
                    -0.0,
                    0.0,
                    Double.MIN_VALUE,
                    Double.MAX_VALUE,
                    Double.longBitsToDouble(0xfff8000000000001L))),
            weighted(1, longs().map(Double::longBitsToDouble)));
    Gen<Sample> sample = c -> new Sample(deltas.generate(c), values.generate(c));
    return sample.list(minSize, maxSize);
  }
}
