package io.flightdeck.promql.parser;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Go's quoting and unquoting of text, which Prometheus uses both to print strings and in its error
 * messages ({@code %q}, {@code %#U}); reproduced so both read exactly as Prometheus's.
 */
final class GoText {
  private GoText() {}

  /** Like Go's {@code strconv.Quote}: double quotes, Go escapes, invalid bytes as {@code \xNN}. */
  static String quote(String s) {
    byte[] b = Utf8.encode(s);
    StringBuilder sb = new StringBuilder(b.length + 2).append('"');
    for (int i = 0; i < b.length; ) {
      int width = Utf8.validWidth(b, i, b.length);
      if (width == 0) {
        sb.append("\\x").append(hex(b[i] & 0xFF, 2));
        i++;
        continue;
      }
      appendEscaped(sb, Utf8.rune(b, i, width), '"');
      i += width;
    }
    return sb.append('"').toString();
  }

  /** Like Go's {@code %.Nq} on a string: the first {@code runes} runes, quoted. */
  static String quotePrefix(String s, int runes) {
    int end = 0;
    for (int n = 0; n < runes && end < s.length(); n++) {
      end += Character.charCount(s.codePointAt(end));
    }
    return quote(s.substring(0, end));
  }

  /** Like Go's {@code %q} on a rune: single quotes; an invalid rune shows as U+FFFD. */
  static String quoteRune(int r) {
    StringBuilder sb = new StringBuilder("'");
    appendEscaped(sb, isValidRune(r) ? r : Utf8.RUNE_ERROR, '\'');
    return sb.append('\'').toString();
  }

  /** Like Go's {@code %#U}: {@code U+0063 'c'}, the character only when printable. */
  static String describeRune(int r) {
    String code = "U+" + hex(r, 4).toUpperCase(Locale.ROOT);
    return isPrint(r) ? code + " '" + new String(Character.toChars(r)) + "'" : code;
  }

  private static void appendEscaped(StringBuilder sb, int r, char quote) {
    if (r == quote || r == '\\') {
      sb.append('\\').appendCodePoint(r);
      return;
    }
    if (isPrint(r)) {
      sb.appendCodePoint(r);
      return;
    }
    switch (r) {
      case 0x07 -> sb.append("\\a");
      case '\b' -> sb.append("\\b");
      case '\f' -> sb.append("\\f");
      case '\n' -> sb.append("\\n");
      case '\r' -> sb.append("\\r");
      case '\t' -> sb.append("\\t");
      case 0x0B -> sb.append("\\v");
      default -> {
        if (r < ' ' || r == 0x7F) {
          sb.append("\\x").append(hex(r, 2));
        } else if (r < 0x10000) {
          sb.append("\\u").append(hex(r, 4));
        } else {
          sb.append("\\U").append(hex(r, 8));
        }
      }
    }
  }

  /** Go's {@code unicode.IsPrint}: letters, marks, numbers, punctuation, symbols, ASCII space. */
  static boolean isPrint(int r) {
    if (r == ' ') {
      return true;
    }
    if (!isValidRune(r)) {
      return false;
    }
    return switch (Character.getType(r)) {
      case Character.UPPERCASE_LETTER,
          Character.LOWERCASE_LETTER,
          Character.TITLECASE_LETTER,
          Character.MODIFIER_LETTER,
          Character.OTHER_LETTER,
          Character.NON_SPACING_MARK,
          Character.ENCLOSING_MARK,
          Character.COMBINING_SPACING_MARK,
          Character.DECIMAL_DIGIT_NUMBER,
          Character.LETTER_NUMBER,
          Character.OTHER_NUMBER,
          Character.CONNECTOR_PUNCTUATION,
          Character.DASH_PUNCTUATION,
          Character.START_PUNCTUATION,
          Character.END_PUNCTUATION,
          Character.INITIAL_QUOTE_PUNCTUATION,
          Character.FINAL_QUOTE_PUNCTUATION,
          Character.OTHER_PUNCTUATION,
          Character.MATH_SYMBOL,
          Character.CURRENCY_SYMBOL,
          Character.MODIFIER_SYMBOL,
          Character.OTHER_SYMBOL ->
          true;
      default -> false;
    };
  }

  private static boolean isValidRune(int r) {
    return r >= 0
        && r <= Character.MAX_CODE_POINT
        && !(r >= Character.MIN_SURROGATE && r <= Character.MAX_SURROGATE);
  }

  private static String hex(int value, int digits) {
    String h = Integer.toHexString(value);
    return h.length() >= digits ? h : "0".repeat(digits - h.length()) + h;
  }

  /**
   * The value of a string token the lexer has accepted: quotes removed, escapes resolved. The lexer
   * has already rejected malformed escapes, so this cannot fail.
   */
  static String unquote(String token) {
    char quote = token.charAt(0);
    String body = token.substring(1, token.length() - 1);
    if (quote == '`' || body.indexOf('\\') < 0) {
      return body;
    }
    byte[] in = Utf8.encode(body);
    ByteArrayOutputStream out = new ByteArrayOutputStream(in.length);
    int i = 0;
    while (i < in.length) {
      if (in[i] != '\\') {
        out.write(in[i++]);
        continue;
      }
      char c = (char) in[i + 1];
      i += 2;
      switch (c) {
        case 'a' -> out.write(0x07);
        case 'b' -> out.write('\b');
        case 'f' -> out.write('\f');
        case 'n' -> out.write('\n');
        case 'r' -> out.write('\r');
        case 't' -> out.write('\t');
        case 'v' -> out.write(0x0B);
        case 'x' -> {
          out.write(Integer.parseInt(new String(in, i, 2, StandardCharsets.US_ASCII), 16));
          i += 2;
        }
        case 'u', 'U' -> {
          int n = c == 'u' ? 4 : 8;
          Utf8.appendRune(
              out, Integer.parseInt(new String(in, i, n, StandardCharsets.US_ASCII), 16));
          i += n;
        }
        case '0', '1', '2', '3', '4', '5', '6', '7' -> {
          out.write(Integer.parseInt(new String(in, i - 1, 3, StandardCharsets.US_ASCII), 8));
          i += 2;
        }
        default -> out.write(c); // \\, \' or \"
      }
    }
    byte[] bytes = out.toByteArray();
    return Utf8.decode(bytes, 0, bytes.length);
  }
}
