package io.flightdeck.tsdb.chunk;

import io.flightdeck.storage.SampleBuffer;
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

  /** The delta of delta: its 1-4 control bits and a short payload decoded from one peek. */
  private long readDeltaOfDelta() {
    long window = in.peek64();
    if (window >= 0) {
      in.skip(1);
      return 0;
    }
    int ones = Long.numberOfLeadingZeros(~window);
    switch (ones) {
      case 1 -> {
        in.skip(2 + 14);
        return (window << 2) >> (64 - 14);
      }
      case 2 -> {
        in.skip(3 + 17);
        return (window << 3) >> (64 - 17);
      }
      case 3 -> {
        in.skip(4 + 20);
        return (window << 4) >> (64 - 20);
      }
      default -> {
        in.skip(4);
        return in.readBits(64);
      }
    }
  }

  /** The value's XOR: its 1, 2 or 13 control bits from one peek, then the meaningful bits. */
  private void readValue() {
    long window = in.peek64();
    if (window >= 0) {
      in.skip(1);
      return;
    }
    if ((window << 1) < 0) {
      in.skip(13);
      int newLeading = (int) ((window << 2) >>> (64 - 5));
      int significant = (int) ((window << 7) >>> (64 - 6));
      if (significant == 0) {
        significant = 64;
      }
      if (newLeading + significant > 64) {
        throw new ChunkCorruptException("XOR chunk has an impossible bit window");
      }
      leading = newLeading;
      trailing = 64 - newLeading - significant;
    } else {
      in.skip(2);
      if (leading < 0) {
        throw new ChunkCorruptException("XOR chunk reuses a bit window it never defined");
      }
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
  public boolean drainTo(SampleBuffer out, long maxt) {
    do {
      if (timestamp > maxt) {
        return true;
      }
      out.add(timestamp, Double.longBitsToDouble(valueBits));
    } while (next());
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
