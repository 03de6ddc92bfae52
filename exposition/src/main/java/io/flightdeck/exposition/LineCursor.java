package io.flightdeck.exposition;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads the tokens of one line: names, quoted strings, blanks, bare words. Every failure is an
 * {@link ExpositionParseException} that names what was expected and what was found.
 */
final class LineCursor {
  private static final int SNIPPET_BYTES = 40;

  /** Powers of ten a double holds exactly (up to 10^22). */
  private static final double[] EXACT_POWERS_OF_TEN = new double[23];

  static {
    EXACT_POWERS_OF_TEN[0] = 1;
    for (int i = 1; i < EXACT_POWERS_OF_TEN.length; i++) {
      EXACT_POWERS_OF_TEN[i] = EXACT_POWERS_OF_TEN[i - 1] * 10;
    }
  }

  private final byte[] buf;
  private final CharsetDecoder utf8 =
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);
  private byte[] scratch = new byte[64];
  private int start;
  private int end;
  private int pos;
  private int line;
  private double number;
  private long integer;

  LineCursor(byte[] buf) {
    this.buf = buf;
  }

  void reset(int start, int end, int line) {
    this.start = start;
    this.end = end;
    this.pos = start;
    this.line = line;
  }

  /** The cursor's offset in the body. */
  int position() {
    return pos;
  }

  /** Moves the cursor to an offset within the current line. */
  void seek(int position) {
    pos = position;
  }

  boolean atEnd() {
    return pos >= end;
  }

  /** The byte at the cursor, or -1 at the end of the line. */
  int peek() {
    return pos < end ? buf[pos] & 0xff : -1;
  }

  boolean lookingAt(String ascii) {
    if (end - pos < ascii.length()) {
      return false;
    }
    for (int i = 0; i < ascii.length(); i++) {
      if (buf[pos + i] != ascii.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** Consumes {@code ascii} if the cursor is looking at it. */
  boolean skip(String ascii) {
    if (lookingAt(ascii)) {
      pos += ascii.length();
      return true;
    }
    return false;
  }

  void expect(char c, String what) throws ExpositionParseException {
    if (peek() != c) {
      throw expected(what);
    }
    pos++;
  }

  /** Skips spaces and tabs; returns how many. */
  int skipBlanks() {
    int from = pos;
    while (pos < end && (buf[pos] == ' ' || buf[pos] == '\t')) {
      pos++;
    }
    return pos - from;
  }

  ExpositionParseException error(String reason) {
    return new ExpositionParseException(reason, line, pos - start + 1);
  }

  ExpositionParseException expected(String what) {
    return error("expected " + what + ", got " + describeNext());
  }

  /** The upcoming text, quoted and shortened, for error messages. */
  String describeNext() {
    if (atEnd()) {
      return "end of line";
    }
    int stop = Math.min(end, pos + SNIPPET_BYTES);
    String text = new String(buf, pos, stop - pos, StandardCharsets.UTF_8);
    return quoted(text + (stop < end ? "..." : ""));
  }

  /**
   * Body text in double quotes for an error message, control characters escaped so that a message
   * shows them: a {@code \r} from CRLF line ends would otherwise be invisible.
   */
  static String quoted(String text) {
    StringBuilder out = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      switch (ch) {
        case '\r' -> out.append("\\r");
        case '\n' -> out.append("\\n");
        case '\t' -> out.append("\\t");
        default -> {
          if (ch < 0x20 || ch == 0x7f) {
            out.append(String.format("\\x%02x", (int) ch));
          } else {
            out.append(ch);
          }
        }
      }
    }
    return out.append('"').toString();
  }

  /** A legacy metric name, {@code [a-zA-Z_:][a-zA-Z0-9_:]*}. */
  String readMetricName(String what) throws ExpositionParseException {
    return readIdentifier(true, what);
  }

  /** A legacy label name, {@code [a-zA-Z_][a-zA-Z0-9_]*}. */
  String readLabelName(String what) throws ExpositionParseException {
    return readIdentifier(false, what);
  }

  private String readIdentifier(boolean colons, String what) throws ExpositionParseException {
    int from = pos;
    while (pos < end) {
      int b = buf[pos];
      boolean letter = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || b == '_';
      boolean ok = letter || (colons && b == ':') || (pos > from && b >= '0' && b <= '9');
      if (!ok) {
        break;
      }
      pos++;
    }
    if (pos == from) {
      throw expected(what);
    }
    return new String(buf, from, pos - from, StandardCharsets.ISO_8859_1);
  }

  /**
   * Skips a series without building it: a legacy metric name, then a brace-enclosed label set whose
   * quoted strings may hold any byte, escaped quotes included. Only delimits; whether the series is
   * well-formed is {@link SeriesReader}'s business. False, with the cursor unmoved, when no series
   * starts here or its braces never close on this line.
   */
  boolean skipSeries() {
    int from = pos;
    if (peek() != '{') {
      if (!atIdentifierStart()) {
        return false;
      }
      while (pos < end && isNameByte(buf[pos])) {
        pos++;
      }
      if (peek() != '{') {
        return true;
      }
    }
    boolean quoted = false;
    for (pos++; pos < end; pos++) {
      byte b = buf[pos];
      if (quoted) {
        if (b == '\\') {
          pos++;
        } else if (b == '"') {
          quoted = false;
        }
      } else if (b == '"') {
        quoted = true;
      } else if (b == '}') {
        pos++;
        return true;
      }
    }
    pos = from;
    return false;
  }

  private static boolean isNameByte(byte b) {
    return (b >= 'a' && b <= 'z')
        || (b >= 'A' && b <= 'Z')
        || (b >= '0' && b <= '9')
        || b == '_'
        || b == ':';
  }

  /**
   * Reads a value token in place when it is a plain decimal ({@code [+-]?digits[.digits]}, at most
   * 18 digits) that divides exactly into a double, which then rounds as {@link Double#parseDouble}
   * would (both operands are exact, so IEEE division rounds once). False, with the cursor unmoved,
   * for anything else (exponents, Inf, NaN, long or bad tokens): the caller falls back to the full
   * grammar. The token must end at a blank or the end of the line.
   */
  boolean readPlainDecimal() {
    int p = pos;
    boolean negative = false;
    if (p < end && (buf[p] == '-' || buf[p] == '+')) {
      negative = buf[p] == '-';
      p++;
    }
    long mantissa = 0;
    int digits = 0;
    int scale = 0;
    boolean point = false;
    for (; p < end; p++) {
      byte b = buf[p];
      if (b >= '0' && b <= '9') {
        if (++digits > 18) {
          return false;
        }
        mantissa = mantissa * 10 + (b - '0');
        scale += point ? 1 : 0;
      } else if (b == '.' && !point) {
        point = true;
      } else {
        break;
      }
    }
    if (digits == 0 || (p < end && buf[p] != ' ' && buf[p] != '\t')) {
      return false;
    }
    if (mantissa > 1L << 53 || scale >= EXACT_POWERS_OF_TEN.length) {
      return false;
    }
    double value = scale == 0 ? mantissa : mantissa / EXACT_POWERS_OF_TEN[scale];
    number = negative ? -value : value;
    pos = p;
    return true;
  }

  /**
   * Reads an integer token ({@code [+-]?digits}, at most 18 digits) in place; false, with the
   * cursor unmoved, for anything else. The token must end at a blank or the end of the line.
   */
  boolean readPlainInteger() {
    int p = pos;
    boolean negative = false;
    if (p < end && (buf[p] == '-' || buf[p] == '+')) {
      negative = buf[p] == '-';
      p++;
    }
    long result = 0;
    int digits = 0;
    for (; p < end && buf[p] >= '0' && buf[p] <= '9'; p++) {
      if (++digits > 18) {
        return false;
      }
      result = result * 10 + (buf[p] - '0');
    }
    if (digits == 0 || (p < end && buf[p] != ' ' && buf[p] != '\t')) {
      return false;
    }
    integer = negative ? -result : result;
    pos = p;
    return true;
  }

  /** What {@link #readPlainDecimal()} read last. */
  double number() {
    return number;
  }

  /** What {@link #readPlainInteger()} read last. */
  long integer() {
    return integer;
  }

  /** Whether a legacy name could start at the cursor. */
  boolean atIdentifierStart() {
    int b = peek();
    return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || b == '_' || b == ':';
  }

  /**
   * A double-quoted string. {@code \\}, {@code \"} and {@code \n} are unescaped; any other
   * backslash pair is kept as written, as Prometheus does. The content must be valid UTF-8.
   */
  String readQuoted(String what) throws ExpositionParseException {
    if (peek() != '"') {
      throw expected(what);
    }
    int open = pos++;
    int length = 0;
    boolean plain = true;
    while (true) {
      if (pos >= end) {
        pos = open;
        throw error("unterminated quoted string in " + what);
      }
      byte b = buf[pos];
      if (b == '"') {
        pos++;
        break;
      }
      if (b == '\\' && pos + 1 < end) {
        byte escaped = buf[pos + 1];
        pos += 2;
        switch (escaped) {
          case '\\' -> b = '\\';
          case '"' -> b = '"';
          case 'n' -> b = '\n';
          default -> {
            length = append(length, (byte) '\\');
            b = escaped;
          }
        }
        length = append(length, b);
        plain = false;
        continue;
      }
      if (b < 0) {
        plain = false;
      }
      length = append(length, b);
      pos++;
    }
    if (plain) {
      return new String(scratch, 0, length, StandardCharsets.ISO_8859_1);
    }
    return decodeUtf8(scratch, length, open, what);
  }

  private int append(int length, byte b) {
    if (length == scratch.length) {
      scratch = Arrays.copyOf(scratch, length * 2);
    }
    scratch[length] = b;
    return length + 1;
  }

  private String decodeUtf8(byte[] bytes, int length, int at, String what)
      throws ExpositionParseException {
    try {
      CharBuffer chars = utf8.reset().decode(ByteBuffer.wrap(bytes, 0, length));
      return chars.toString();
    } catch (CharacterCodingException e) {
      pos = at;
      throw error("invalid UTF-8 in " + what);
    }
  }

  /** Bytes up to the next byte in {@code stops} or the end of the line, possibly empty. */
  String readUntil(String stops) {
    int from = pos;
    while (pos < end && stops.indexOf(buf[pos]) < 0) {
      pos++;
    }
    return new String(buf, from, pos - from, StandardCharsets.ISO_8859_1);
  }

  /**
   * The rest of the line with the given escapes undone ({@code \\} and {@code \n}, plus {@code \"}
   * when {@code quoteEscape}); other bytes are kept, invalid UTF-8 becomes U+FFFD.
   */
  String readRestUnescaped(boolean quoteEscape) {
    int length = 0;
    while (pos < end) {
      byte b = buf[pos++];
      if (b == '\\' && pos < end) {
        byte escaped = buf[pos];
        if (escaped == '\\' || escaped == 'n' || (quoteEscape && escaped == '"')) {
          b = escaped == 'n' ? (byte) '\n' : escaped;
          pos++;
        }
      }
      length = append(length, b);
    }
    return new String(scratch, 0, length, StandardCharsets.UTF_8);
  }
}
