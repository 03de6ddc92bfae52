package io.flightdeck.tsdb.encoding;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * A growable byte buffer for the on-disk formats: varints, big-endian fixed integers, strings as
 * length-prefixed UTF-8. Reused by its owner via {@link #reset()}; not thread-safe.
 */
public final class Encbuf {
  private byte[] bytes;
  private int length;

  public Encbuf(int capacity) {
    this.bytes = new byte[Math.max(capacity, 16)];
  }

  public Encbuf reset() {
    length = 0;
    return this;
  }

  public int length() {
    return length;
  }

  public byte[] array() {
    return bytes;
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(bytes, length);
  }

  public Encbuf putByte(int b) {
    ensure(1);
    bytes[length++] = (byte) b;
    return this;
  }

  public Encbuf putBytes(byte[] src, int offset, int count) {
    ensure(count);
    System.arraycopy(src, offset, bytes, length, count);
    length += count;
    return this;
  }

  public Encbuf putInt(int v) {
    ensure(4);
    bytes[length++] = (byte) (v >>> 24);
    bytes[length++] = (byte) (v >>> 16);
    bytes[length++] = (byte) (v >>> 8);
    bytes[length++] = (byte) v;
    return this;
  }

  public Encbuf putLong(long v) {
    putInt((int) (v >>> 32));
    return putInt((int) v);
  }

  public Encbuf putDouble(double v) {
    return putLong(Double.doubleToRawLongBits(v));
  }

  public Encbuf putUvarint(long v) {
    ensure(10);
    while ((v & ~0x7FL) != 0) {
      bytes[length++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    bytes[length++] = (byte) v;
    return this;
  }

  /** Zig-zag encoded signed varint. */
  public Encbuf putVarint(long v) {
    return putUvarint((v << 1) ^ (v >> 63));
  }

  public Encbuf putString(String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    putUvarint(utf8.length);
    return putBytes(utf8, 0, utf8.length);
  }

  /** Overwrites 4 bytes at an earlier position (for lengths known only later). */
  public void setInt(int position, int v) {
    bytes[position] = (byte) (v >>> 24);
    bytes[position + 1] = (byte) (v >>> 16);
    bytes[position + 2] = (byte) (v >>> 8);
    bytes[position + 3] = (byte) v;
  }

  public int crc32c(int from, int to) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, from, to - from);
    return (int) crc.getValue();
  }

  private void ensure(int more) {
    if (length + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(length + more, bytes.length * 2));
    }
  }
}
