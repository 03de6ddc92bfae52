package io.flightdeck.tsdb.encoding;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Reads what {@link Encbuf} wrote, from a {@link ByteBuffer} (heap or memory-mapped). Every read is
 * bounds-checked and a short or malformed input raises {@link CorruptDataException}, never an index
 * error. Not thread-safe; the underlying buffer is not modified.
 */
public final class Decbuf {
  private final ByteBuffer buf;

  public Decbuf(ByteBuffer buf) {
    this.buf = buf;
  }

  public static Decbuf wrap(byte[] bytes, int offset, int length) {
    return new Decbuf(ByteBuffer.wrap(bytes, offset, length).slice());
  }

  public int position() {
    return buf.position();
  }

  public void position(int position) {
    if (position < 0 || position > buf.limit()) {
      throw new CorruptDataException(
          "offset " + position + " outside of " + buf.limit() + " bytes");
    }
    buf.position(position);
  }

  public int remaining() {
    return buf.remaining();
  }

  public int getByte() {
    need(1);
    return buf.get() & 0xff;
  }

  public int getInt() {
    need(4);
    return buf.getInt();
  }

  public long getLong() {
    need(8);
    return buf.getLong();
  }

  public double getDouble() {
    return Double.longBitsToDouble(getLong());
  }

  public long getUvarint() {
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = getByte();
      result |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw new CorruptDataException("varint longer than 10 bytes at offset " + buf.position());
  }

  public int getUvarintInt() {
    long v = getUvarint();
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw new CorruptDataException("count " + v + " out of range at offset " + buf.position());
    }
    return (int) v;
  }

  public long getVarint() {
    long v = getUvarint();
    return (v >>> 1) ^ -(v & 1);
  }

  public String getString() {
    int length = getUvarintInt();
    need(length);
    String s;
    if (buf.hasArray()) {
      s =
          new String(
              buf.array(), buf.arrayOffset() + buf.position(), length, StandardCharsets.UTF_8);
      buf.position(buf.position() + length);
    } else {
      byte[] bytes = new byte[length];
      buf.get(bytes);
      s = new String(bytes, StandardCharsets.UTF_8);
    }
    return s;
  }

  public void getBytes(byte[] dst, int offset, int length) {
    need(length);
    buf.get(dst, offset, length);
  }

  public void skip(int count) {
    need(count);
    buf.position(buf.position() + count);
  }

  private void need(int count) {
    if (count < 0 || buf.remaining() < count) {
      throw new CorruptDataException(
          "need " + count + " bytes at offset " + buf.position() + ", only " + buf.remaining());
    }
  }
}
