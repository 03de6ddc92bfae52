package io.flightdeck.tsdb.block;

import java.security.SecureRandom;

/**
 * Block names: 26-character ULIDs (48-bit millisecond time, 80 random bits, Crockford base32), so
 * names sort by creation time, as Prometheus's block directories do.
 */
public final class Ulid {
  private static final char[] ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();

  /**
   * Made on the first name: seeding it cost a hundredth of a second at each start, where loading
   * blocks checks names with {@link #looksLikeUlid} long before anything is named.
   */
  private static final class Random {
    static final SecureRandom SOURCE = new SecureRandom();
  }

  private Ulid() {}

  public static String next(long millis) {
    char[] out = new char[26];
    for (int i = 9; i >= 0; i--) {
      out[i] = ALPHABET[(int) (millis & 31)];
      millis >>>= 5;
    }
    byte[] random = new byte[10];
    Random.SOURCE.nextBytes(random);
    long high = 0;
    for (int i = 0; i < 5; i++) {
      high = (high << 8) | (random[i] & 0xff);
    }
    long low = 0;
    for (int i = 5; i < 10; i++) {
      low = (low << 8) | (random[i] & 0xff);
    }
    for (int i = 17; i >= 10; i--) {
      out[i] = ALPHABET[(int) (high & 31)];
      high >>>= 5;
    }
    for (int i = 25; i >= 18; i--) {
      out[i] = ALPHABET[(int) (low & 31)];
      low >>>= 5;
    }
    return new String(out);
  }

  public static boolean looksLikeUlid(String name) {
    if (name.length() != 26) {
      return false;
    }
    for (char c : name.toCharArray()) {
      if (new String(ALPHABET).indexOf(c) < 0) {
        return false;
      }
    }
    return true;
  }
}
