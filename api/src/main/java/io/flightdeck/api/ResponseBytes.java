package io.flightdeck.api;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The bytes of one API response. Jackson writes the JSON structure into it as its output stream,
 * and the number layouts that repeat once per point (timestamps, sample values) append their ASCII
 * here directly: a 6-hour panel has thousands of points per series, and a {@link String} per point
 * pushed through the generator cost more than the digits themselves.
 */
final class ResponseBytes extends OutputStream {
  private static final long NINE_DIGITS = 1_000_000_000L;

  private byte[] bytes;
  private int size;

  ResponseBytes(int capacity) {
    bytes = new byte[capacity];
  }

  @Override
  public void write(int b) {
    ensure(1);
    bytes[size++] = (byte) b;
  }

  @Override
  public void write(byte[] source, int offset, int length) {
    ensure(length);
    System.arraycopy(source, offset, bytes, size, length);
    size += length;
  }

  /** Appends an ASCII character. */
  ResponseBytes append(char c) {
    ensure(1);
    bytes[size++] = (byte) c;
    return this;
  }

  /** Appends an ASCII string. */
  ResponseBytes append(String ascii) {
    return append(ascii, 0, ascii.length());
  }

  /** Appends characters [from, to) of an ASCII string. */
  ResponseBytes append(String ascii, int from, int to) {
    ensure(to - from);
    for (int i = from; i < to; i++) {
      bytes[size++] = (byte) ascii.charAt(i);
    }
    return this;
  }

  /** Appends {@code count} copies of an ASCII character. */
  ResponseBytes repeat(char c, int count) {
    ensure(count);
    Arrays.fill(bytes, size, size + count, (byte) c);
    size += count;
    return this;
  }

  /** Appends a long in decimal, as {@link Long#toString(long)} writes it. */
  ResponseBytes append(long value) {
    if (value == Long.MIN_VALUE) {
      return append(Long.toString(value));
    }
    if (value < 0) {
      append('-');
      value = -value;
    }
    if (value <= Integer.MAX_VALUE) {
      return appendDigits((int) value, digitCount((int) value));
    }
    // Nine digits at a time in int arithmetic: a long division per digit was as slow as
    // formatting the sample value next to it (timestamps are ten digits).
    long high = value / NINE_DIGITS;
    append(high);
    return appendDigits((int) (value - high * NINE_DIGITS), 9);
  }

  /** Makes room for {@code extra} more bytes at once, where the caller knows about how many. */
  void reserve(int extra) {
    ensure(extra);
  }

  byte[] toByteArray() {
    return Arrays.copyOf(bytes, size);
  }

  /** The bytes so far as a string; they are ASCII wherever this is called. */
  @Override
  public String toString() {
    return new String(bytes, 0, size, StandardCharsets.ISO_8859_1);
  }

  /** Appends {@code count} digits of a non-negative int, with leading zeros where it has fewer. */
  private ResponseBytes appendDigits(int value, int count) {
    ensure(count);
    int end = size + count;
    for (int i = end - 1; i >= size; i--) {
      int rest = value / 10;
      bytes[i] = (byte) ('0' + (value - rest * 10));
      value = rest;
    }
    size = end;
    return this;
  }

  private static int digitCount(int value) {
    int count = 1;
    for (int bound = 10; count < 10 && value >= bound; bound *= 10) {
      count++;
    }
    return count;
  }

  private void ensure(int extra) {
    if (size + extra > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + extra));
    }
  }
}
