package io.flightdeck.tsdb.chunk;

import io.flightdeck.storage.SampleIterator;

/** Decodes an XOR chunk written by {@link XorEncoder}. Reusable through {@link #reset}. */
public final class XorIterator implements SampleIterator {
  private final BitReader in = new BitReader();
  private int total;
  private int read;
  private long timestamp;
  private long delta;
  private long valueBits;
  private int leading;
  private int trailing;
  private boolean exhausted;

  public XorIterator reset(byte[] bytes, int offset, int length, int sampleCount) {
    in.reset(bytes, offset, length);
    this.total = sampleCount;
    this.read = 0;
    this.delta = 0;
    this.leading = -1;
    this.trailing = 0;
    this.exhausted = false;
    return this;
  }

  @Override
  public boolean next() {
    if (read >= total) {
      exhausted = true;
      return false;
    }
    if (read == 0) {
      timestamp = in.readBits(64);
      valueBits = in.readBits(64);
    } else {
      delta += readDeltaOfDelta();
      timestamp += delta;
      readValue();
    }
    read++;
    return true;
  }

  private long readDeltaOfDelta() {
    if (!in.readBit()) {
      return 0;
    }
    if (!in.readBit()) {
      return signExtend(in.readBits(14), 14);
    }
    if (!in.readBit()) {
      return signExtend(in.readBits(17), 17);
    }
    if (!in.readBit()) {
      return signExtend(in.readBits(20), 20);
    }
    return in.readBits(64);
  }

  private static long signExtend(long value, int bits) {
    return (value << (64 - bits)) >> (64 - bits);
  }

  private void readValue() {
    if (!in.readBit()) {
      return;
    }
    if (in.readBit()) {
      leading = (int) in.readBits(5);
      int significant = (int) in.readBits(6);
      if (significant == 0) {
        significant = 64;
      }
      trailing = 64 - leading - significant;
      if (trailing < 0) {
        throw new ChunkCorruptException("XOR chunk has an impossible bit window");
      }
    } else if (leading < 0) {
      throw new ChunkCorruptException("XOR chunk reuses a bit window it never defined");
    }
    valueBits ^= in.readBits(64 - leading - trailing) << trailing;
  }

  @Override
  public boolean seek(long t) {
    if (exhausted) {
      return false;
    }
    if (read > 0 && timestamp >= t) {
      return true;
    }
    while (next()) {
      if (timestamp >= t) {
        return true;
      }
    }
    return false;
  }

  @Override
  public long timestamp() {
    return timestamp;
  }

  @Override
  public double value() {
    return Double.longBitsToDouble(valueBits);
  }
}
