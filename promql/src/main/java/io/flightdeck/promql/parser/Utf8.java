package io.flightdeck.promql.parser;

import java.io.ByteArrayOutputStream;

/**
 * UTF-8 the way Go treats it, since Prometheus counts positions in bytes and lets string escapes
 * produce bytes that are not valid UTF-8. Such bytes survive in Java strings as the lone surrogates
 * U+DC80 to U+DCFF ("surrogate escapes") and turn back into the same bytes on encoding.
 */
final class Utf8 {
  static final int RUNE_ERROR = 0xFFFD;
  private static final int ESCAPED_BYTE_BASE = 0xDC00;

  private Utf8() {}

  static byte[] encode(String s) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(s.length() + 8);
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      if (isEscapedByte(cp)) {
        out.write(cp - ESCAPED_BYTE_BASE);
      } else {
        appendRune(
            out, cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE ? RUNE_ERROR : cp);
      }
    }
    return out.toByteArray();
  }

  static void appendRune(ByteArrayOutputStream out, int cp) {
    if (cp < 0x80) {
      out.write(cp);
    } else if (cp < 0x800) {
      out.write(0xC0 | cp >> 6);
      out.write(0x80 | cp & 0x3F);
    } else if (cp < 0x10000) {
      out.write(0xE0 | cp >> 12);
      out.write(0x80 | cp >> 6 & 0x3F);
      out.write(0x80 | cp & 0x3F);
    } else {
      out.write(0xF0 | cp >> 18);
      out.write(0x80 | cp >> 12 & 0x3F);
      out.write(0x80 | cp >> 6 & 0x3F);
      out.write(0x80 | cp & 0x3F);
    }
  }

  /** Decodes bytes; each byte that does not start a valid sequence becomes a surrogate escape. */
  static String decode(byte[] b, int from, int to) {
    StringBuilder sb = new StringBuilder(to - from);
    int i = from;
    while (i < to) {
      int width = validWidth(b, i, to);
      if (width == 0) {
        sb.append((char) (ESCAPED_BYTE_BASE + (b[i] & 0xFF)));
        i++;
      } else {
        sb.appendCodePoint(rune(b, i, width));
        i += width;
      }
    }
    return sb.toString();
  }

  /** Whether the string holds no surrogate escapes (or other lone surrogates). */
  static boolean isValid(String s) {
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      if (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE) {
        return false;
      }
      i += Character.charCount(cp);
    }
    return true;
  }

  /** The length of the valid UTF-8 sequence at {@code i} (before {@code limit}), or 0. */
  static int validWidth(byte[] b, int i, int limit) {
    int b0 = b[i] & 0xFF;
    if (b0 < 0x80) {
      return 1;
    }
    int width;
    int lo = 0x80;
    int hi = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
      width = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
      width = 3;
      if (b0 == 0xE0) {
        lo = 0xA0;
      } else if (b0 == 0xED) {
        hi = 0x9F; // would encode a surrogate
      }
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
      width = 4;
      if (b0 == 0xF0) {
        lo = 0x90;
      } else if (b0 == 0xF4) {
        hi = 0x8F;
      }
    } else {
      return 0;
    }
    if (i + width > limit) {
      return 0;
    }
    int b1 = b[i + 1] & 0xFF;
    if (b1 < lo || b1 > hi) {
      return 0;
    }
    for (int k = 2; k < width; k++) {
      int bk = b[i + k] & 0xFF;
      if (bk < 0x80 || bk > 0xBF) {
        return 0;
      }
    }
    return width;
  }

  /** The code point of a valid sequence of the given width. */
  static int rune(byte[] b, int i, int width) {
    int b0 = b[i] & 0xFF;
    return switch (width) {
      case 1 -> b0;
      case 2 -> (b0 & 0x1F) << 6 | b[i + 1] & 0x3F;
      case 3 -> (b0 & 0x0F) << 12 | (b[i + 1] & 0x3F) << 6 | b[i + 2] & 0x3F;
      default ->
          (b0 & 0x07) << 18 | (b[i + 1] & 0x3F) << 12 | (b[i + 2] & 0x3F) << 6 | b[i + 3] & 0x3F;
    };
  }

  static boolean isEscapedByte(int cp) {
    return cp >= ESCAPED_BYTE_BASE + 0x80 && cp <= ESCAPED_BYTE_BASE + 0xFF;
  }
}
