package io.flightdeck.tsdb.block;

import io.flightdeck.tsdb.chunk.ChunkEncoding;
import io.flightdeck.tsdb.chunk.DecimalChunk;
import io.flightdeck.tsdb.chunk.XorBatchEncoder;
import java.util.Arrays;

/**
 * Encodes a block's chunk in the smaller of its two encodings (tsdb/docs/formats.md, "Chunk
 * files"), without encoding both when the answer is clear. Short decimals (a temperature, a power
 * draw, a count) come to a few varint bytes a sample before compression, which zstd takes below
 * what XOR's bit-packing reaches: decimal, at once. Decimals of many digits can turn out larger: a
 * trainer's float32 throughput, 52013.83984375, is exact at 8 decimals, and its random steps make
 * varints of six bytes that zstd cannot shrink to the 3 bytes XOR takes. Past the clear case both
 * are weighed, and zstd runs only when the varints alone are less than one and a half times the XOR
 * chunk: on the storage benchmark's exporter data, chunks past that ratio never came out smaller as
 * decimal, while chunks between one and one and a half times often did (3% of its bytes). Keeps its
 * encoders from chunk to chunk; not thread-safe.
 */
final class ChunkEncoder {
  /**
   * Varint bytes per sample up to which decimal is taken untried against XOR: zstd takes such a
   * chunk to about half that or less, where XOR spends at least a bit per timestamp and value and,
   * for values that change, a dozen or more.
   */
  static final int CLEARLY_DECIMAL_RAW_BYTES_PER_SAMPLE = 4;

  /**
   * Samples below which both are weighed anyway: zstd's frame costs a dozen bytes, which a short
   * chunk's bits cannot make up for.
   */
  static final int CLEARLY_DECIMAL_MIN_SAMPLES = 64;

  private final DecimalChunk.Encoder decimal = new DecimalChunk.Encoder();
  private final XorBatchEncoder xor = new XorBatchEncoder();
  private int encoding;

  /** Where {@link #encode(long[], double[], int, int)} encodes before copying out. */
  private byte[] scratch = new byte[0];

  /** The most bytes {@link #encode} writes for {@code count} samples. */
  static int maxBytes(int count) {
    return Math.max(DecimalChunk.maxEncodedSize(count), XorBatchEncoder.maxBytes(count));
  }

  /**
   * Encodes samples {@code [from, from + count)} into {@code out} at {@code at}, which must have
   * {@link #maxBytes}{@code (count)} bytes from there; returns the chunk's size, and {@link
   * #encoding()} tells in which encoding.
   *
   * @param times strictly increasing timestamps
   */
  int encode(long[] times, double[] values, int from, int count, byte[] out, int at) {
    int raw = decimal.prepare(times, values, from, count);
    if (raw >= 0
        && count >= CLEARLY_DECIMAL_MIN_SAMPLES
        && raw <= CLEARLY_DECIMAL_RAW_BYTES_PER_SAMPLE * count) {
      encoding = ChunkEncoding.DECIMAL;
      return decimal.compress(out, at);
    }
    xor.encode(times, values, from, count);
    int xorLength = xor.byteLength();
    if (raw >= 0 && 2L * raw < 3L * xorLength) {
      int length = decimal.compress(out, at);
      if (length <= xorLength) {
        encoding = ChunkEncoding.DECIMAL;
        return length;
      }
    }
    xor.copyTo(out, at);
    encoding = ChunkEncoding.XOR;
    return xorLength;
  }

  /** As {@link #encode(long[], double[], int, int, byte[], int)}, into an array of its own. */
  byte[] encode(long[] times, double[] values, int from, int count) {
    if (scratch.length < maxBytes(count)) {
      scratch = new byte[maxBytes(count)];
    }
    return Arrays.copyOf(scratch, encode(times, values, from, count, scratch, 0));
  }

  /** The {@link ChunkEncoding} of the last chunk {@link #encode} wrote. */
  int encoding() {
    return encoding;
  }
}
