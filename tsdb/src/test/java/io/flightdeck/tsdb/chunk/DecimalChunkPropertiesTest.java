package io.flightdeck.tsdb.chunk;

import static io.flightdeck.testkit.Generators.booleans;
import static io.flightdeck.testkit.Generators.bytes;
import static io.flightdeck.testkit.Generators.doubles;
import static io.flightdeck.testkit.Generators.floats;
import static io.flightdeck.testkit.Generators.integers;
import static io.flightdeck.testkit.Generators.longs;
import static io.flightdeck.testkit.Generators.of;
import static io.flightdeck.testkit.Generators.oneOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.testkit.Gen;
import io.flightdeck.testkit.Property;
import io.flightdeck.tsdb.encoding.CorruptDataException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The decimal encoding is exact whenever it accepts a chunk, and accepts the usual metrics. */
class DecimalChunkPropertiesTest {
  private final DecimalChunk.Encoder encoder = new DecimalChunk.Encoder();

  /** The decimal chunk of the samples, or null when the encoder declines them. */
  private byte[] encode(long[] times, double[] values, int from, int count) {
    if (encoder.prepare(times, values, from, count) < 0) {
      return null;
    }
    byte[] out = new byte[DecimalChunk.maxEncodedSize(count)];
    return java.util.Arrays.copyOf(out, encoder.compress(out, 0));
  }

  @Test
  void acceptedChunksDecodeBitExact() {
    Property.tries(500)
        .check(
            in ->
                decodesBitExactIfAccepted(
                    in.draw("values", values(1, 1024)),
                    in.draw("start", longs()),
                    in.draw("from", integers(0, 3))));
  }

  private void decodesBitExactIfAccepted(List<Double> values, long start, int from) {
    int n = values.size();
    // The chunk's samples sit at [from, from + n) of longer arrays, after samples of no interest.
    long[] times = new long[from + n];
    double[] in = new double[from + n];
    java.util.Arrays.fill(in, 0, from, Double.NaN);
    long t = start;
    for (int i = 0; i < n; i++) {
      t += 1 + (i % 7 == 0 ? 1_000_003 : 15_000);
      times[from + i] = t;
      in[from + i] = values.get(i);
    }
    byte[] data = encode(times, in, from, n);
    if (data == null) {
      assertThatThrownBy(() -> encoder.compress(new byte[DecimalChunk.maxEncodedSize(n)], 0))
          .isInstanceOf(IllegalStateException.class);
      return; // declined: the block writer falls back to XOR
    }
    // Compressed into the middle of a shared array, as an import keeps its chunks: the same bytes.
    byte[] shared = new byte[5 + DecimalChunk.maxEncodedSize(n) + 7];
    java.util.Arrays.fill(shared, (byte) 0x9F);
    assertThat(encoder.prepare(times, in, from, n)).isPositive();
    int size = encoder.compress(shared, 5);
    assertThat(java.util.Arrays.copyOfRange(shared, 5, 5 + size)).isEqualTo(data);
    long[] outTimes = new long[n];
    double[] out = new double[n];
    // Decoded from the middle of that array, through a scratch buffer holding a previous chunk.
    byte[] scratch = new byte[DecimalChunk.maxRawSize(n)];
    java.util.Arrays.fill(scratch, (byte) 0x9F);
    DecimalChunk.decode(shared, 5, size, n, outTimes, out, scratch);
    assertThat(outTimes).containsExactly(java.util.Arrays.copyOfRange(times, from, from + n));
    for (int i = 0; i < n; i++) {
      assertThat(Double.doubleToRawLongBits(out[i]))
          .isEqualTo(Double.doubleToRawLongBits(in[from + i]));
    }
  }

  /**
   * Chunks encoded one after another, some with the timestamps of the one before (where the encoder
   * keeps that chunk's time varints) and some with timestamps that differ in one place only: each
   * decodes to its own samples, and its bytes are those it gets after an unrelated chunk.
   */
  @Test
  void chunksSharingTimestampsEncodeAsAlone() {
    Property.tries(200)
        .check(
            in ->
                encodeAsAlone(
                    in.draw("layouts", integers(0, 3).list(1, 8)),
                    in.draw("n", integers(1, 1024)),
                    in.draw("changedAt", integers(0, 1023))));
  }

  private void encodeAsAlone(List<Integer> layouts, int n, int changedAt) {
    long[][] timeLayouts = new long[4][];
    for (int layout = 0; layout < timeLayouts.length; layout++) {
      // Layouts 0 and 1 differ in one timestamp; 2 is 0 one place later in a longer array.
      long[] times = new long[n + 1];
      for (int i = 0; i < n; i++) {
        times[i] = 1_796_083_200_000L + i * 15_000L + (layout == 3 ? 7 : 0);
      }
      if (layout == 1) {
        times[changedAt % n] += changedAt % n == n - 1 ? 1 : -1;
      }
      if (layout == 2) {
        System.arraycopy(times, 0, times, 1, n);
      }
      timeLayouts[layout] = times;
    }
    for (int c = 0; c < layouts.size(); c++) {
      int layout = layouts.get(c);
      int from = layout == 2 ? 1 : 0;
      double[] values = new double[n + 1];
      for (int i = 0; i < n; i++) {
        values[from + i] = (i * (c + 3)) % 17;
      }
      byte[] data = encode(timeLayouts[layout], values, from, n);
      long[] outTimes = new long[n];
      double[] out = new double[n];
      DecimalChunk.decode(
          data, 0, data.length, n, outTimes, out, new byte[DecimalChunk.maxRawSize(n)]);
      assertThat(outTimes)
          .containsExactly(java.util.Arrays.copyOfRange(timeLayouts[layout], from, from + n));
      assertThat(out).containsExactly(java.util.Arrays.copyOfRange(values, from, from + n));
      long[] unrelated = {1, 2, 3};
      encode(unrelated, new double[] {1, 2, 3}, 0, 3);
      assertThat(encode(timeLayouts[layout], values, from, n)).isEqualTo(data);
      // Encoding it again right after itself takes the kept varints: the same bytes once more.
      assertThat(encode(timeLayouts[layout], values, from, n)).isEqualTo(data);
    }
  }

  private static Gen<List<Double>> values(int minSize, int maxSize) {
    Gen<Double> value =
        oneOf(
            integers(0, 100).map(Integer::doubleValue),
            longs(-1_000_000_000L, 1_000_000_000L).map(m -> m / 1000.0),
            longs(0, 999_999).map(m -> m / 1e6),
            doubles(),
            // Trainers' float32 values, widened: short decimals only when they are large.
            floats().map(Float::doubleValue),
            floats(1e3f, 1e6f).map(Float::doubleValue),
            longs().map(Long::doubleValue),
            of(
                0.1,
                0.2,
                0.3,
                1e-300,
                1e300,
                123456789.123456789,
                Double.MIN_VALUE,
                9007199254740993.0));
    return value.list(minSize, maxSize);
  }

  @Test
  void declinesWhatItCannotKeepExactly() {
    long[] t = {1, 2};
    assertThat(encode(t, new double[] {1, Double.NaN}, 0, 2)).isNull();
    assertThat(encode(t, new double[] {1, -0.0}, 0, 2)).isNull();
    assertThat(encode(t, new double[] {1, Double.POSITIVE_INFINITY}, 0, 2)).isNull();
    assertThat(encode(t, new double[] {0.1, 0.30000000000000004}, 0, 2)).isNull();
    // Whole numbers the mantissas cannot hold, past the integers' short cut.
    assertThat(encode(t, new double[] {1, 0x1p53}, 0, 2)).isNull();
    assertThat(encode(t, new double[] {1, -0x1p53}, 0, 2)).isNull();
    assertThat(encode(t, new double[] {1, -0x1p63}, 0, 2)).isNull();
    assertThat(encode(t, new double[] {1, 0x1p63}, 0, 2)).isNull();
  }

  @Test
  void damagedChunksRaiseCorruptDataNeverAnotherError() {
    Property.tries(300)
        .check(
            in ->
                failsOnlyAsCorrupt(
                    in.draw("cut", integers(0, 10_000)),
                    in.draw("flipped", bytes()),
                    in.draw("flippedAt", integers(0, 10_000)),
                    in.draw("truncate", booleans())));
  }

  private void failsOnlyAsCorrupt(int cut, byte flipped, int flippedAt, boolean truncate) {
    int n = 200;
    long[] times = new long[n];
    double[] values = new double[n];
    for (int i = 0; i < n; i++) {
      times[i] = 1_000L + i * 15_000L;
      values[i] = (i * 37 % 101) / 4.0;
    }
    byte[] data = encode(times, values, 0, n);
    int length = truncate ? cut % data.length : data.length;
    if (!truncate) {
      data[flippedAt % data.length] ^= (byte) (flipped | 1);
    }
    try {
      DecimalChunk.decode(
          data, 0, length, n, new long[n], new double[n], new byte[DecimalChunk.maxRawSize(n)]);
    } catch (CorruptDataException expected) {
      assertThat(expected).hasMessageContaining("decimal chunk");
    }
  }

  @Test
  void aChunkThatDecompressesIntoTooFewVarintsIsCorrupt() {
    long[] times = {1, 2, 3};
    byte[] data = encode(times, new double[] {1, 2, 3}, 0, 3);
    // Read as a chunk of 200 samples, its varints run out early.
    assertThatThrownBy(
            () ->
                DecimalChunk.decode(
                    data,
                    0,
                    data.length,
                    200,
                    new long[200],
                    new double[200],
                    new byte[DecimalChunk.maxRawSize(200)]))
        .isInstanceOf(CorruptDataException.class)
        .hasMessageContaining("decimal chunk ends after");
  }

  @Test
  void typicalGpuMetricsShrinkWellBelowXor() {
    int n = 480;
    long[] times = new long[n];
    double[] power = new double[n];
    java.util.Random random = new java.util.Random(1);
    XorEncoder xor = new XorEncoder();
    for (int i = 0; i < n; i++) {
      times[i] = 1_796_083_200_000L + i * 15_000L;
      power[i] = Math.round((250 + random.nextGaussian() * 20) * 1000) / 1000.0;
      xor.append(times[i], power[i]);
    }
    byte[] decimal = encode(times, power, 0, n);
    assertThat(decimal).isNotNull();
    assertThat(decimal.length).isLessThan(xor.byteLength() * 2 / 3);
  }
}
