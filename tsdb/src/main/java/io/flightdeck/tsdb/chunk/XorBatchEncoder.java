package io.flightdeck.tsdb.chunk;

import java.util.Arrays;

/**
 * Encodes a whole chunk's samples at once, into the very bits {@link XorEncoder} appends one sample
 * at a time (tsdb/docs/formats.md, "XOR chunk"). The streaming encoder ORs every write into its
 * array at once, because readers of a head chunk decode it while appends go on; nobody reads a
 * chunk this encoder is building, so it gathers bits in a 64-bit word and stores whole words, a
 * sample's bits mostly in one write: 24 to 26 ns per float32 training value against 41 under C1,
 * which the one-shot import runs on. Reuses its buffer from chunk to chunk; not thread-safe.
 */
public final class XorBatchEncoder {
  private byte[] out = new byte[64];
  private int length;

  /** Bits not yet stored, left-aligned; fewer than 64 of them. */
  private long pending;

  private int pendingBits;

  /**
   * Encodes samples {@code [from, from + count)}, which {@link #toBytes()} then copies out, until
   * the next call.
   *
   * @param times strictly increasing timestamps
   * @param count at least 1
   */
  public void encode(long[] times, double[] values, int from, int count) {
    length = 0;
    pending = 0;
    pendingBits = 0;
    long lastTime = times[from];
    long lastBits = Double.doubleToRawLongBits(values[from]);
    long lastDelta = 0;
    int leading = -1;
    int trailing = 0;
    write(lastTime, 64);
    write(lastBits, 64);
    for (int i = from + 1; i < from + count; i++) {
      long delta = times[i] - lastTime;
      long dod = delta - lastDelta;
      // A sample's bits are gathered in one word and written once when they fit, as they mostly
      // do: an unchanged interval is one bit, and a value's window a few dozen.
      long word;
      int bits;
      if (dod == 0) {
        word = 0;
        bits = 1;
      } else if (XorEncoder.fitsSigned(dod, 14)) {
        word = (0b10L << 14) | (dod & 0x3fff);
        bits = 2 + 14;
      } else if (XorEncoder.fitsSigned(dod, 17)) {
        word = (0b110L << 17) | (dod & 0x1ffff);
        bits = 3 + 17;
      } else if (XorEncoder.fitsSigned(dod, 20)) {
        word = (0b1110L << 20) | (dod & 0xfffff);
        bits = 4 + 20;
      } else {
        write(0b1111, 4);
        word = dod;
        bits = 64;
      }
      long value = Double.doubleToRawLongBits(values[i]);
      long xor = value ^ lastBits;
      if (xor == 0) {
        if (bits < 64) {
          write(word << 1, bits + 1);
        } else {
          write(word, bits);
          write(0, 1);
        }
      } else if (leading >= 0 && insideWindow(xor, leading, trailing)) {
        // The previous window holds every changed bit: the same test as XorEncoder's on leading
        // and trailing zero counts, without counting them.
        int significant = 64 - leading - trailing;
        long window = xor >>> trailing;
        if (bits + 2 + significant <= 64) {
          write(
              (word << (2 + significant)) | (0b10L << significant) | window,
              bits + 2 + significant);
        } else {
          write(word, bits);
          write(0b10, 2);
          write(window, significant);
        }
      } else {
        write(word, bits);
        int lead = Math.min(BitCounts.leadingZeros(xor), 31);
        int trail = BitCounts.trailingZeros(xor);
        int significant = 64 - lead - trail;
        write((0b11 << 11) | (lead << 6) | (significant == 64 ? 0 : significant), 13);
        write(xor >>> trail, significant);
        leading = lead;
        trailing = trail;
      }
      lastDelta = delta;
      lastTime = times[i];
      lastBits = value;
    }
    int tail = (pendingBits + 7) >>> 3;
    ensure(tail);
    for (int k = 0; k < tail; k++) {
      out[length + k] = (byte) (pending >>> (56 - 8 * k));
    }
    length += tail;
  }

  public int byteLength() {
    return length;
  }

  /** A copy of the last chunk's bytes. */
  public byte[] toBytes() {
    return Arrays.copyOf(out, length);
  }

  /** Copies the last chunk's bytes into {@code dst} at {@code at}. */
  public void copyTo(byte[] dst, int at) {
    System.arraycopy(out, 0, dst, at, length);
  }

  /**
   * The most bytes a chunk of {@code count} samples takes: the first sample's 128 bits, then at
   * most 68 bits of timestamp (a 4-bit prefix and 64) and 77 of value (a 13-bit header and 64) for
   * each other one.
   */
  public static int maxBytes(int count) {
    return (int) ((128 + 145L * (count - 1) + 7) / 8);
  }

  /**
   * Whether {@code xor} has no set bit among its {@code leading} highest and {@code trailing}
   * lowest bits: the same as its leading zeros (at most 31 counted) being at least {@code leading},
   * which is at most 31, and its trailing zeros at least {@code trailing}.
   */
  private static boolean insideWindow(long xor, int leading, int trailing) {
    return (leading == 0 || xor >>> (64 - leading) == 0) && (xor & ((1L << trailing) - 1)) == 0;
  }

  /**
   * Appends the low {@code count} bits of {@code value}, 1 <= count <= 64. Small enough for C1 to
   * inline: called at least once per sample.
   */
  private void write(long value, int count) {
    long bits = value & (-1L >>> (64 - count)); // the low count bits, all 64 for a count of 64
    int left = 64 - pendingBits - count; // free bits in the pending word once these are in
    if (left > 0) {
      pending |= bits << left;
      pendingBits = 64 - left;
    } else {
      spill(bits, -left);
    }
  }

  /** Stores the pending word filled up by {@code bits}' high bits; their low {@code rest} wait. */
  private void spill(long bits, int rest) {
    store(pending | (bits >>> rest));
    pending = rest == 0 ? 0 : bits << (64 - rest);
    pendingBits = rest;
  }

  /** Stores a full word, most significant byte first. */
  private void store(long word) {
    ensure(8);
    byte[] o = out;
    int at = length;
    o[at] = (byte) (word >>> 56);
    o[at + 1] = (byte) (word >>> 48);
    o[at + 2] = (byte) (word >>> 40);
    o[at + 3] = (byte) (word >>> 32);
    o[at + 4] = (byte) (word >>> 24);
    o[at + 5] = (byte) (word >>> 16);
    o[at + 6] = (byte) (word >>> 8);
    o[at + 7] = (byte) word;
    length = at + 8;
  }

  private void ensure(int bytes) {
    if (length + bytes > out.length) {
      out = Arrays.copyOf(out, Math.max(length + bytes, 2 * out.length));
    }
  }
}
