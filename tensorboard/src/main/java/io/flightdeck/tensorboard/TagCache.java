package io.flightdeck.tensorboard;

import com.google.protobuf.ByteString;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The tag strings of one run by their UTF-8 bytes: a run logs the same few tags in every event, so
 * a lookup replaces decoding a string per value. Direct-mapped and fixed in size: a tag that
 * collides with another is decoded again, never wrong. Not thread-safe.
 */
final class TagCache {
  private static final int SLOTS = 1024;

  private final byte[][] keys = new byte[SLOTS][];
  private final String[] values = new String[SLOTS];

  /** The tag in {@code bytes[offset, offset + length)}, or null when it is not valid UTF-8. */
  String get(byte[] bytes, int offset, int length) {
    int hash = 1;
    for (int i = offset; i < offset + length; i++) {
      hash = 31 * hash + bytes[i];
    }
    int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
    byte[] key = keys[slot];
    if (key != null && Arrays.equals(key, 0, key.length, bytes, offset, offset + length)) {
      return values[slot];
    }
    ByteString copy = ByteString.copyFrom(bytes, offset, length);
    if (!copy.isValidUtf8()) {
      return null;
    }
    String tag = copy.toString(StandardCharsets.UTF_8);
    keys[slot] = copy.toByteArray();
    values[slot] = tag;
    return tag;
  }
}
