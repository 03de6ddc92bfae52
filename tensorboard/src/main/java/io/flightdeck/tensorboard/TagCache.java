package io.flightdeck.tensorboard;

import com.google.protobuf.ByteString;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The tag strings of one run by their UTF-8 bytes: a run logs the same few tags in every event, so
 * a lookup replaces decoding a string per value. Direct-mapped and fixed in size: a tag that
 * collides with another is decoded again, never wrong. A run also logs its tags in the same order
 * at every step, so each lookup first tries the tag that followed the previous one last time, which
 * spares hashing the bytes. Not thread-safe.
 */
final class TagCache {
  private static final int SLOTS = 1024;

  /** Eight bytes of an array as one long, for {@link #sameBytes}; the byte order is irrelevant. */
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

  private final byte[][] keys = new byte[SLOTS][];
  private final String[] values = new String[SLOTS];

  /** The slot looked up right after each slot, the last time. */
  private final int[] following = new int[SLOTS];

  private int previous;

  /** The tag in {@code bytes[offset, offset + length)}, or null when it is not valid UTF-8. */
  String get(byte[] bytes, int offset, int length) {
    // The guess alone, small enough for C1 to inline into the decoder once per value.
    int guess = following[previous];
    byte[] guessed = keys[guess];
    if (guessed != null && sameBytes(guessed, bytes, offset, length)) {
      previous = guess;
      return values[guess];
    }
    return lookUp(bytes, offset, length);
  }

  private String lookUp(byte[] bytes, int offset, int length) {
    int hash = 1;
    for (int i = offset; i < offset + length; i++) {
      hash = 31 * hash + bytes[i];
    }
    int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
    byte[] key = keys[slot];
    if (key != null && sameBytes(key, bytes, offset, length)) {
      follow(slot);
      return values[slot];
    }
    ByteString copy = ByteString.copyFrom(bytes, offset, length);
    if (!copy.isValidUtf8()) {
      return null;
    }
    String tag = copy.toString(StandardCharsets.UTF_8);
    keys[slot] = copy.toByteArray();
    values[slot] = tag;
    follow(slot);
    return tag;
  }

  /**
   * Whether {@code key} holds {@code bytes[offset, offset + length)}: eight bytes at a time, the
   * last eight overlapping the ones before, as tags are mostly 8 to 32 bytes. A plain loop took
   * twice as long under C1 for the tags of a training run, and {@code Arrays.equals} over ranges,
   * with its range checks and vectorized compare, about a sixth of a 1 GB import's decoding thread.
   */
  private static boolean sameBytes(byte[] key, byte[] bytes, int offset, int length) {
    if (key.length != length) {
      return false;
    }
    if (length < Long.BYTES) {
      for (int i = 0; i < length; i++) {
        if (key[i] != bytes[offset + i]) {
          return false;
        }
      }
      return true;
    }
    int last = length - Long.BYTES;
    for (int i = 0; i < last; i += Long.BYTES) {
      if ((long) LONGS.get(key, i) != (long) LONGS.get(bytes, offset + i)) {
        return false;
      }
    }
    return (long) LONGS.get(key, last) == (long) LONGS.get(bytes, offset + last);
  }

  private void follow(int slot) {
    following[previous] = slot;
    previous = slot;
  }
}
