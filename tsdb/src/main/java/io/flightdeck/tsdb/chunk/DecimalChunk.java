package io.flightdeck.tsdb.chunk;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import io.flightdeck.tsdb.encoding.CorruptDataException;

/**
 * The dense chunk encoding of blocks (tsdb/docs/formats.md, "Decimal chunk"). Most metric values
 * are short decimals (GPU temperature 71, power 245.125, a ratio 0.734521); written as integer
 * mantissas over one power of ten, their deltas are small integers, and zstd then squeezes the
 * varints of timestamps and mantissas far below what XOR bit-packing reaches. A value that is not
 * such a decimal, exactly (NaN, infinities, -0.0, more than 15 significant digits), makes the
 * encoder decline, and the caller keeps the XOR encoding for that chunk; decimals of many digits
 * can also come out larger than XOR, which the block's chunk encoder weighs (ChunkEncoder).
 */
public final class DecimalChunk {
  private static final int MAX_SCALE = 17;
  private static final long MAX_MANTISSA = 1L << 53;
  private static final long NOT_EXACT = Long.MIN_VALUE;

  /** From {@link #mantissaAt}: no exact mantissa below 2^53 at this scale or any larger one. */
  private static final long TOO_LARGE = Long.MIN_VALUE + 1;

  private static final double[] POW10 = new double[MAX_SCALE + 1];
  private static final long[] LONG_POW10 = new long[MAX_SCALE + 1];
  private static final int MODE_DELTA = 1;
  private static final int MODE_DELTA_OF_DELTA = 2;
  private static final int ZSTD_LEVEL = 3;

  /** {@code 64 - Long.numberOfLeadingZeros(v)} for v below 256. */
  private static final byte[] SMALL_BIT_LENGTHS = new byte[256];

  static {
    for (int v = 1; v < SMALL_BIT_LENGTHS.length; v++) {
      SMALL_BIT_LENGTHS[v] = (byte) (32 - Integer.numberOfLeadingZeros(v));
    }
    double p = 1;
    long lp = 1;
    for (int i = 0; i <= MAX_SCALE; i++) {
      POW10[i] = p;
      LONG_POW10[i] = lp;
      p *= 10;
      lp *= 10;
    }
  }

  private static final ThreadLocal<ZstdDecompressCtx> DECOMPRESSOR =
      ThreadLocal.withInitial(ZstdDecompressCtx::new);

  private DecimalChunk() {}

  /**
   * Sets up zstd's native bindings (a tenth of a second of CPU, once per process), so that a caller
   * about to write blocks can have it done ahead, on a thread of its own.
   */
  public static void preload() {
    new ZstdCompressCtx().close();
  }

  /**
   * Encodes chunks in two steps, so that a caller can weigh a chunk's size before paying for its
   * compression: {@link #prepare} writes the varints, {@link #compress} their zstd frame. Keeps its
   * working arrays and zstd context (costlier to create than compressing a chunk) from chunk to
   * chunk; not thread-safe.
   */
  public static final class Encoder {
    private final ZstdCompressCtx compressor = new ZstdCompressCtx().setLevel(ZSTD_LEVEL);
    private long[] mantissas = new long[0];
    private int[] scales = new int[0];
    private byte[] raw = new byte[0];

    /** The timestamps whose varints {@link #raw} starts with; {@code rawTimesCount} of them. */
    private long[] rawTimes = new long[0];

    private int rawTimesCount = -1;
    private int rawTimesLength;

    /** The varints {@link #prepare} wrote, and for how many samples; -1 when it declined. */
    private int rawLength = -1;

    private int preparedCount;

    /**
     * Writes the varints of samples {@code [from, from + count)} and returns their length before
     * compression, or -1 when some value is not an exact short decimal (NaN, infinities, -0.0, too
     * many digits), which leaves nothing to compress.
     *
     * @param times strictly increasing timestamps
     */
    public int prepare(long[] times, double[] values, int from, int count) {
      ensure(count);
      rawLength = -1;
      int scale = mantissas(values, from, count);
      if (scale < 0) {
        return -1;
      }
      int length = timeVarints(times, from, count);
      raw[length++] = (byte) scale;
      int mode = cheaperMode(mantissas, count);
      raw[length++] = (byte) mode;
      length = putVarint(raw, length, mantissas[0]);
      long previous = mantissas[0];
      long previousStep = 0;
      for (int i = 1; i < count; i++) {
        long step = mantissas[i] - previous;
        length = putVarint(raw, length, mode == MODE_DELTA ? step : step - previousStep);
        previous = mantissas[i];
        previousStep = step;
      }
      rawLength = length;
      preparedCount = count;
      return length;
    }

    /**
     * Compresses what {@link #prepare} wrote into {@code out} at {@code at}, which must have {@link
     * #maxEncodedSize}{@code (count)} bytes from there; returns the chunk's size.
     *
     * @throws IllegalStateException when the last {@link #prepare} declined its samples
     */
    public int compress(byte[] out, int at) {
      if (rawLength < 0) {
        throw new IllegalStateException("no decimal chunk prepared");
      }
      return compressor.compressByteArray(
          out, at, maxEncodedSize(preparedCount), raw, 0, rawLength);
    }

    /**
     * Fills {@link #mantissas} with the values as integers over one power of ten; returns that
     * power's exponent, the chunk's scale, or -1 when some value has no such exact form.
     */
    private int mantissas(double[] values, int from, int count) {
      int scale = 0;
      for (int i = 0; i < count; i++) {
        double v = values[from + i];
        long whole = (long) v;
        // Integers (steps, counts) are most values: scale 0 without the search. -0.0 and values
        // past 2^53 take the search, which declines them.
        if (whole == v
            && whole > -MAX_MANTISSA
            && whole < MAX_MANTISSA
            && (whole != 0 || isPositiveZero(v))) {
          scales[i] = 0;
          mantissas[i] = whole;
          continue;
        }
        // A series' values mostly share their number of decimals, so the chunk's scale so far is
        // tried first, and a search goes on upwards from it: the chunk takes the largest scale
        // anyway, and the loop below checks each value at that scale.
        long m = scale > 0 ? mantissaAt(v, scale) : NOT_EXACT;
        while (m == NOT_EXACT && scale < MAX_SCALE) {
          m = mantissaAt(v, ++scale);
        }
        if (m == NOT_EXACT || m == TOO_LARGE) {
          return -1; // NaN, infinities, -0.0 and too many digits end here
        }
        scales[i] = scale;
        mantissas[i] = m;
      }
      for (int i = 0; scale > 0 && i < count; i++) {
        if (scales[i] == scale) {
          continue; // exact at this very scale already
        }
        long factor = LONG_POW10[scale - scales[i]];
        long m = mantissas[i];
        if (Math.abs(m) >= MAX_MANTISSA / factor) {
          return -1;
        }
        mantissas[i] = m * factor;
        if (Double.doubleToRawLongBits(mantissas[i] / POW10[scale])
            != Double.doubleToRawLongBits(values[from + i])) {
          return -1;
        }
      }
      return scale;
    }

    private void ensure(int count) {
      if (mantissas.length < count) {
        mantissas = new long[count];
        scales = new int[count];
        raw = new byte[maxRawSize(count)];
        rawTimes = new long[count];
        rawTimesCount = -1;
      }
    }

    /**
     * Writes the varints of timestamps {@code [from, from + count)} at the start of {@link #raw};
     * returns their length. Series written together share their timestamps (a histogram's bucket
     * series, a scalar's value and step), and their chunks are encoded one after the other: when
     * the timestamps are those already there, the varints are too, and a compare replaces encoding
     * them.
     */
    private int timeVarints(long[] times, int from, int count) {
      if (count == rawTimesCount && sameTimes(times, from, count)) {
        return rawTimesLength;
      }
      int length = putVarint(raw, 0, times[from]);
      long previousDelta = 0;
      for (int i = 1; i < count; i++) {
        long delta = times[from + i] - times[from + i - 1];
        length = putVarint(raw, length, delta - previousDelta);
        previousDelta = delta;
      }
      System.arraycopy(times, from, rawTimes, 0, count);
      rawTimesCount = count;
      rawTimesLength = length;
      return length;
    }

    private boolean sameTimes(long[] times, int from, int count) {
      for (int i = 0; i < count; i++) {
        if (times[from + i] != rawTimes[i]) {
          return false;
        }
      }
      return true;
    }
  }

  /** The most bytes {@link Encoder#compress} writes for {@code count} samples. */
  public static int maxEncodedSize(int count) {
    return (int) Zstd.compressBound(maxRawSize(count));
  }

  /**
   * The mantissa below 2^53 in magnitude that gives back exactly {@code v} over 10^scale; {@link
   * #NOT_EXACT} when a larger scale may still give one, {@link #TOO_LARGE} when none can (NaN and
   * infinities included).
   */
  private static long mantissaAt(double v, int scale) {
    double scaled = v * POW10[scale];
    if (!(Math.abs(scaled) < MAX_MANTISSA)) {
      return TOO_LARGE;
    }
    long m = Math.round(scaled);
    return Double.doubleToRawLongBits(m / POW10[scale]) == Double.doubleToRawLongBits(v)
        ? m
        : NOT_EXACT;
  }

  /** Writes {@code v} zig-zag encoded as a varint at {@code at}; returns the position after it. */
  private static int putVarint(byte[] out, int at, long v) {
    long zigzag = (v << 1) ^ (v >> 63);
    while ((zigzag & ~0x7FL) != 0) {
      out[at++] = (byte) (zigzag | 0x80);
      zigzag >>>= 7;
    }
    out[at++] = (byte) zigzag;
    return at;
  }

  private static boolean isPositiveZero(double v) {
    return Double.doubleToRawLongBits(v) == 0;
  }

  /** Counters rise by similar steps (delta of delta is small); gauges wander (delta is small). */
  private static int cheaperMode(long[] mantissas, int count) {
    long deltaCost = 0;
    long dodCost = 0;
    long previous = mantissas[0];
    long previousStep = 0;
    for (int i = 1; i < count; i++) {
      long m = mantissas[i];
      long step = m - previous;
      long dod = step - previousStep;
      deltaCost += bitLength((step << 1) ^ (step >> 63));
      dodCost += bitLength((dod << 1) ^ (dod >> 63));
      previous = m;
      previousStep = step;
    }
    return dodCost < deltaCost ? MODE_DELTA_OF_DELTA : MODE_DELTA;
  }

  /**
   * Bits of a zig-zag value. Most are tiny, and a table answers them; the rest come from {@link
   * BitCounts}: the import runs on C1, which calls {@code Long.numberOfLeadingZeros} as Java code
   * (a third of this choice's time).
   */
  private static int bitLength(long zigzag) {
    return (zigzag & ~0xFFL) == 0
        ? SMALL_BIT_LENGTHS[(int) zigzag]
        : 64 - BitCounts.leadingZeros(zigzag);
  }

  /**
   * How many bytes a chunk of {@code count} samples takes before compression, at most: two varints
   * of at most 10 bytes per sample, the scale and the mode.
   */
  public static int maxRawSize(int count) {
    return 20 * count + 2;
  }

  /**
   * Decodes {@code data[offset, offset + length)} into the given arrays, which must hold {@code
   * count} entries, through {@code scratch}, which must hold {@link #maxRawSize}{@code (count)}
   * bytes: a reader decodes chunk after chunk into the same arrays instead of allocating them per
   * chunk.
   */
  public static void decode(
      byte[] data,
      int offset,
      int length,
      int count,
      long[] times,
      double[] values,
      byte[] scratch) {
    // No separate call for the frame's content size: a frame that holds more than a chunk of this
    // many samples can does not fit the scratch, and zstd refuses it.
    int rawLength;
    try {
      rawLength =
          DECOMPRESSOR
              .get()
              .decompressByteArray(scratch, 0, maxRawSize(count), data, offset, length);
    } catch (RuntimeException e) {
      throw new CorruptDataException("decimal chunk does not decompress: " + e.getMessage(), e);
    }
    VarintCursor in = new VarintCursor(scratch, rawLength);
    long t = in.next();
    times[0] = t;
    long delta = 0;
    for (int i = 1; i < count; i++) {
      delta += in.next();
      t += delta;
      times[i] = t;
    }
    int scale = in.nextByte();
    int mode = in.nextByte();
    if (scale > MAX_SCALE || (mode != MODE_DELTA && mode != MODE_DELTA_OF_DELTA)) {
      throw new CorruptDataException("decimal chunk has scale " + scale + " and mode " + mode);
    }
    double divisor = POW10[scale];
    long m = in.next();
    values[0] = m / divisor;
    long step = 0;
    for (int i = 1; i < count; i++) {
      long next = in.next();
      step = mode == MODE_DELTA ? next : step + next;
      m += step;
      values[i] = m / divisor;
    }
  }

  /**
   * Zig-zag varints read straight from an array: through a {@code ByteBuffer} each byte cost a
   * bounds check and a call, the largest part of decoding a chunk.
   */
  private static final class VarintCursor {
    private final byte[] bytes;
    private final int limit;
    private int position;

    VarintCursor(byte[] bytes, int limit) {
      this.bytes = bytes;
      this.limit = limit;
    }

    long next() {
      // Most deltas of timestamps and of mantissas fit one byte.
      if (position < limit && bytes[position] >= 0) {
        int b = bytes[position++];
        return (b >>> 1) ^ -(b & 1);
      }
      long raw = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        int b = nextByte();
        raw |= (long) (b & 0x7F) << shift;
        if (b < 0x80) {
          return (raw >>> 1) ^ -(raw & 1);
        }
      }
      throw new CorruptDataException("decimal chunk has a varint longer than 10 bytes");
    }

    int nextByte() {
      if (position >= limit) {
        throw new CorruptDataException("decimal chunk ends after " + limit + " bytes");
      }
      return bytes[position++] & 0xFF;
    }
  }
}
