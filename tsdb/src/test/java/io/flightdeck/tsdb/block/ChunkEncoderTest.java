package io.flightdeck.tsdb.block;

import static io.flightdeck.testkit.Generators.constant;
import static io.flightdeck.testkit.Generators.doubles;
import static io.flightdeck.testkit.Generators.floats;
import static io.flightdeck.testkit.Generators.integers;
import static io.flightdeck.testkit.Generators.longs;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.storage.SampleIterator;
import io.flightdeck.testkit.Gen;
import io.flightdeck.testkit.Generators;
import io.flightdeck.testkit.Property;
import io.flightdeck.tsdb.chunk.ChunkDecoder;
import io.flightdeck.tsdb.chunk.ChunkEncoding;
import io.flightdeck.tsdb.chunk.DecimalChunk;
import io.flightdeck.tsdb.chunk.XorBatchEncoder;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A block's chunk takes the smaller encoding, and decodes to its samples bit for bit. */
class ChunkEncoderTest {
  private final ChunkEncoder encoder = new ChunkEncoder();

  @Test
  void chunksDecodeBitExactAndNeverExceedTheirXorForm() {
    Property.tries(400)
        .check(
            in ->
                decodesBitExactWithinXor(
                    in.draw("values", values(1, 1024)),
                    in.draw("interval", integers(1, 60_000)),
                    in.draw("from", integers(0, 3))));
  }

  private void decodesBitExactWithinXor(List<Double> values, int interval, int from) {
    int n = values.size();
    long[] times = new long[from + n];
    double[] in = new double[from + n];
    for (int i = 0; i < n; i++) {
      times[from + i] = 1_796_083_200_000L + (long) i * interval + (i % 5 == 0 ? 3 : 0);
      in[from + i] = values.get(i);
    }
    byte[] out = new byte[3 + ChunkEncoder.maxBytes(n)];
    int length = encoder.encode(times, in, from, n, out, 3);

    XorBatchEncoder xor = new XorBatchEncoder();
    xor.encode(times, in, from, n);
    assertThat(length).isLessThanOrEqualTo(xor.byteLength());
    SampleIterator it = new ChunkDecoder().decode(encoder.encoding(), out, 3, length, n, n);
    for (int i = 0; i < n; i++) {
      assertThat(it.next()).isTrue();
      assertThat(it.timestamp()).isEqualTo(times[from + i]);
      assertThat(Double.doubleToRawLongBits(it.value()))
          .isEqualTo(Double.doubleToRawLongBits(in[from + i]));
    }
    assertThat(it.next()).isFalse();
  }

  private static Gen<List<Double>> values(int minSize, int maxSize) {
    return Generators.<Double>oneOf(
            integers(0, 100).map(Integer::doubleValue),
            longs(-1_000_000, 1_000_000).map(m -> m / 1000.0),
            doubles(),
            floats(1e3f, 1e6f).map(Float::doubleValue),
            constant(42.0))
        .list(minSize, maxSize);
  }

  @Test
  void shortDecimalsGoDecimalAndFarBelowXor() {
    int n = 1024;
    long[] times = times(n, 15_000);
    double[] power = new double[n];
    Random random = new Random(7);
    for (int i = 0; i < n; i++) {
      power[i] = Math.round((250 + random.nextGaussian() * 20) * 1000) / 1000.0;
    }
    byte[] chunk = encoder.encode(times, power, 0, n);
    assertThat(encoder.encoding()).isEqualTo(ChunkEncoding.DECIMAL);
    XorBatchEncoder xor = new XorBatchEncoder();
    xor.encode(times, power, 0, n);
    assertThat(chunk.length).isLessThan(xor.byteLength() * 2 / 3);
  }

  /**
   * A trainer's float32 throughput near 52,000 is an exact decimal at 8 places, whose random steps
   * zstd cannot shrink to what XOR takes: the chunk is XOR, and smaller than its decimal form.
   */
  @Test
  void largeFloat32ValuesGoXorWhereDecimalWouldBeLarger() {
    int n = 1024;
    long[] times = times(n, 1_000);
    double[] tokensPerSecond = new double[n];
    Random random = new Random(3);
    for (int i = 0; i < n; i++) {
      tokensPerSecond[i] = (float) (52_000 + 800 * random.nextGaussian());
    }
    DecimalChunk.Encoder decimal = new DecimalChunk.Encoder();
    assertThat(decimal.prepare(times, tokensPerSecond, 0, n)).isPositive();
    int decimalLength = decimal.compress(new byte[DecimalChunk.maxEncodedSize(n)], 0);

    byte[] chunk = encoder.encode(times, tokensPerSecond, 0, n);
    assertThat(encoder.encoding()).isEqualTo(ChunkEncoding.XOR);
    assertThat(chunk.length).isLessThan(decimalLength * 2 / 3);
  }

  /**
   * A large counter with uneven increments, as dcgm-exporter's NVLink byte total (1.05e14, rising
   * by about 3.3e9 a scrape), makes varints larger than its XOR chunk, which zstd squeezes below
   * it: the chunk is decimal.
   */
  @Test
  void largeCountersThatZstdSqueezesGoDecimal() {
    int n = 480;
    long[] times = times(n, 15_000);
    double[] nvlinkBytes = new double[n];
    Random random = new Random(5);
    double total = 1.05504372259597e14;
    for (int i = 0; i < n; i++) {
      total += Math.rint(3.3e9 + 2e8 * random.nextGaussian());
      nvlinkBytes[i] = total;
    }
    XorBatchEncoder xor = new XorBatchEncoder();
    xor.encode(times, nvlinkBytes, 0, n);
    int raw = new DecimalChunk.Encoder().prepare(times, nvlinkBytes, 0, n);
    assertThat(raw).isGreaterThan(ChunkEncoder.CLEARLY_DECIMAL_RAW_BYTES_PER_SAMPLE * n);
    assertThat(raw).isGreaterThan(xor.byteLength());

    byte[] chunk = encoder.encode(times, nvlinkBytes, 0, n);
    assertThat(encoder.encoding()).isEqualTo(ChunkEncoding.DECIMAL);
    assertThat(chunk.length).isLessThan(xor.byteLength());
  }

  /** {@code n} timestamps {@code intervalMs} apart. */
  private static long[] times(int n, long intervalMs) {
    long[] times = new long[n];
    for (int i = 0; i < n; i++) {
      times[i] = 1_796_083_200_000L + i * intervalMs;
    }
    return times;
  }

  /** One sample: XOR's 16 bytes beat any zstd frame around a decimal. */
  @Test
  void aSingleSampleGoesXor() {
    byte[] chunk = encoder.encode(new long[] {1_796_083_200_000L}, new double[] {71}, 0, 1);
    assertThat(encoder.encoding()).isEqualTo(ChunkEncoding.XOR);
    assertThat(chunk).hasSize(16);
  }
}
