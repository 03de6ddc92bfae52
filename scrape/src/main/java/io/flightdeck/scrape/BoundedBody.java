package io.flightdeck.scrape;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads a response body into an array, failing with {@link BodyTooLargeException} as soon as it
 * would exceed the limit, so an oversized body is never held whole. With a Content-Length the array
 * is sized once and returned without a copy.
 */
final class BoundedBody {
  /** Thrown when the limit is exceeded. */
  static final class BodyTooLargeException extends Exception {
    private static final long serialVersionUID = 1L;

    BodyTooLargeException() {
      super("body size limit exceeded");
    }
  }

  /**
   * Largest array sized up front from a Content-Length; beyond it the array grows as bytes come.
   */
  private static final int MAX_PRESIZE = 4 << 20;

  private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

  private BoundedBody() {}

  /**
   * Reads {@code in} to its end.
   *
   * @param limit most bytes accepted; 0 or less for none
   * @param expectedLength the body's length if known, else -1
   */
  static byte[] read(InputStream in, long limit, long expectedLength)
      throws IOException, BodyTooLargeException {
    long max = limit <= 0 ? Long.MAX_VALUE : limit;
    if (expectedLength > max) {
      throw new BodyTooLargeException();
    }
    // One byte past the limit is room enough to tell that it was exceeded.
    int cap = max >= MAX_ARRAY ? MAX_ARRAY : (int) max + 1;
    int initial = expectedLength > 0 ? (int) Math.min(expectedLength, MAX_PRESIZE) : 8192;
    byte[] bytes = new byte[Math.min(initial, cap)];
    int size = 0;
    while (true) {
      if (size == bytes.length) {
        // Full: the body may have ended exactly here, which only a read at its end tells.
        int next = in.read();
        if (next < 0) {
          return bytes;
        }
        if (size >= max || bytes.length == MAX_ARRAY) {
          throw new BodyTooLargeException();
        }
        bytes = Arrays.copyOf(bytes, (int) Math.min(2L * bytes.length, cap));
        bytes[size++] = (byte) next;
      }
      int n = in.read(bytes, size, bytes.length - size);
      if (n < 0) {
        return size == bytes.length ? bytes : Arrays.copyOf(bytes, size);
      }
      size += n;
      if (size > max) {
        throw new BodyTooLargeException();
      }
    }
  }
}
