package io.flightdeck.promql.engine;

/**
 * The XXH64 hash (seed 0), which Prometheus applies to label sets; {@code limit_ratio} keeps a
 * series by where its hash falls, so choosing the same series as Prometheus needs the same hash.
 */
final class XxHash64 {
  private static final long P1 = 0x9E3779B185EBCA87L;
  private static final long P2 = 0xC2B2AE3D27D4EB4FL;
  private static final long P3 = 0x165667B19E3779F9L;
  private static final long P4 = 0x85EBCA77C2B2AE63L;
  private static final long P5 = 0x27D4EB2F165667C5L;

  private XxHash64() {}

  static long hash(byte[] data) {
    int length = data.length;
    int i = 0;
    long h;
    if (length >= 32) {
      long v1 = P1 + P2;
      long v2 = P2;
      long v3 = 0;
      long v4 = -P1;
      for (; i + 32 <= length; i += 32) {
        v1 = round(v1, readLong(data, i));
        v2 = round(v2, readLong(data, i + 8));
        v3 = round(v3, readLong(data, i + 16));
        v4 = round(v4, readLong(data, i + 24));
      }
      h =
          Long.rotateLeft(v1, 1)
              + Long.rotateLeft(v2, 7)
              + Long.rotateLeft(v3, 12)
              + Long.rotateLeft(v4, 18);
      h = mergeRound(h, v1);
      h = mergeRound(h, v2);
      h = mergeRound(h, v3);
      h = mergeRound(h, v4);
    } else {
      h = P5;
    }
    h += length;
    for (; i + 8 <= length; i += 8) {
      h ^= round(0, readLong(data, i));
      h = Long.rotateLeft(h, 27) * P1 + P4;
    }
    if (i + 4 <= length) {
      h ^= (readInt(data, i) & 0xFFFFFFFFL) * P1;
      h = Long.rotateLeft(h, 23) * P2 + P3;
      i += 4;
    }
    for (; i < length; i++) {
      h ^= (data[i] & 0xFFL) * P5;
      h = Long.rotateLeft(h, 11) * P1;
    }
    h ^= h >>> 33;
    h *= P2;
    h ^= h >>> 29;
    h *= P3;
    h ^= h >>> 32;
    return h;
  }

  private static long round(long acc, long input) {
    return Long.rotateLeft(acc + input * P2, 31) * P1;
  }

  private static long mergeRound(long acc, long value) {
    acc ^= round(0, value);
    return acc * P1 + P4;
  }

  private static long readLong(byte[] b, int i) {
    return (b[i] & 0xFFL)
        | (b[i + 1] & 0xFFL) << 8
        | (b[i + 2] & 0xFFL) << 16
        | (b[i + 3] & 0xFFL) << 24
        | (b[i + 4] & 0xFFL) << 32
        | (b[i + 5] & 0xFFL) << 40
        | (b[i + 6] & 0xFFL) << 48
        | (b[i + 7] & 0xFFL) << 56;
  }

  private static int readInt(byte[] b, int i) {
    return (b[i] & 0xFF)
        | (b[i + 1] & 0xFF) << 8
        | (b[i + 2] & 0xFF) << 16
        | (b[i + 3] & 0xFF) << 24;
  }
}
