package io.flightdeck.model;

/**
 * Orders strings as their UTF-8 bytes (code point order), as Prometheus's Go strings sort. Java's
 * {@link String#compareTo} orders UTF-16 code units, which differs when a character beyond U+FFFF
 * meets one in U+E000..U+FFFF.
 */
public final class Utf8Order {
  private Utf8Order() {}

  public static int compare(String a, String b) {
    // Label sets read from one block share their strings (one per symbol). Only the reference is
    // compared: an equals call before every comparison of two different names costs more than it
    // saves.
    if (a == b) {
      return 0;
    }
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        return fixup(x) - fixup(y);
      }
    }
    return a.length() - b.length();
  }

  /** Moves surrogates above U+E000..U+FFFF so code units compare like code points. */
  private static int fixup(char c) {
    if (c >= 0xD800 && c <= 0xDFFF) {
      return c + 0x2000;
    }
    return c >= 0xE000 ? c - 0x800 : c;
  }
}
