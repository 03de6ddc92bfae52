package io.flightdeck.tsdb.chunk;

/**
 * Gorilla-style compression of one series' samples (see tsdb/docs/formats.md, "XOR chunk"):
 * timestamps as delta-of-delta in variable-width buckets, values as XOR with the previous value
 * storing only the meaningful bits. Bit-exact for every double, NaN payloads included.
 *
 * <p>Not thread-safe: the owner serialises appends and copies out bytes for readers.
 */
public final class XorEncoder {
  private final BitWriter out;
  private int count;
  private long lastTimestamp;
  private long lastDelta;
  private long lastValueBits;
  private int leading = -1;
  private int trailing;

  public XorEncoder() {
    this(32);
  }

  /**
   * @param expectedBytes the size this chunk will likely reach (the series' previous chunk, say): a
   *     well-sized buffer is never regrown and can become the finished chunk without a copy
   */
  public XorEncoder(int expectedBytes) {
    this.out = new BitWriter(expectedBytes);
  }

  public void append(long timestamp, double value) {
    long bits = Double.doubleToRawLongBits(value);
    if (count == 0) {
      out.writeBits(timestamp, 64);
      out.writeBits(bits, 64);
    } else {
      long delta = timestamp - lastTimestamp;
      writeDeltaOfDelta(delta - lastDelta);
      writeValue(bits ^ lastValueBits);
      lastDelta = delta;
    }
    lastTimestamp = timestamp;
    lastValueBits = bits;
    count++;
  }

  private void writeDeltaOfDelta(long dod) {
    if (dod == 0) {
      out.writeBit(false);
    } else if (fitsSigned(dod, 14)) {
      out.writeBits((0b10L << 14) | (dod & 0x3fff), 2 + 14);
    } else if (fitsSigned(dod, 17)) {
      out.writeBits((0b110L << 17) | (dod & 0x1ffff), 3 + 17);
    } else if (fitsSigned(dod, 20)) {
      out.writeBits((0b1110L << 20) | (dod & 0xfffff), 4 + 20);
    } else {
      out.writeBits(0b1111, 4);
      out.writeBits(dod, 64);
    }
  }

  private void writeValue(long xor) {
    if (xor == 0) {
      out.writeBit(false);
      return;
    }
    int lead = Math.min(BitCounts.leadingZeros(xor), 31);
    int trail = BitCounts.trailingZeros(xor);
    // Control bits and window go out in one write each; the stream is the same bit by bit.
    if (leading >= 0 && lead >= leading && trail >= trailing) {
      out.writeBits(0b10, 2);
      out.writeBits(xor >>> trailing, 64 - leading - trailing);
    } else {
      int significant = 64 - lead - trail;
      out.writeBits((0b11 << 11) | (lead << 6) | (significant == 64 ? 0 : significant), 13);
      out.writeBits(xor >>> trail, significant);
      leading = lead;
      trailing = trail;
    }
  }

  static boolean fitsSigned(long value, int bits) {
    long limit = 1L << (bits - 1);
    return value >= -limit && value < limit;
  }

  public int count() {
    return count;
  }

  public long lastTimestamp() {
    return lastTimestamp;
  }

  public int byteLength() {
    return out.byteLength();
  }

  /**
   * The encoder's own buffer, not a copy, for readers of the open chunk. Appends only set bits
   * after those of the samples so far (into zeroed bytes) or move on to a new array, so a reader
   * that stops after the {@link #count()} it saw decodes the same samples while appends go on.
   */
  public byte[] liveBytes() {
    return out.buffer();
  }

  /** A copy of the encoded bytes so far: an immutable chunk for readers. */
  public byte[] toBytes() {
    return java.util.Arrays.copyOf(out.buffer(), out.byteLength());
  }

  /**
   * The finished chunk's bytes, possibly with a few unused bytes at the end (readers stop after
   * {@link #count()} samples). The buffer itself is handed over when little of it is unused, so the
   * encoder must not be appended to afterwards.
   */
  public byte[] finish() {
    byte[] buffer = out.buffer();
    int used = out.byteLength();
    return buffer.length - used <= Math.max(8, used / 8) ? buffer : toBytes();
  }
}
