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

  LineCursor(byte[] buf) {
    this.buf = buf;
  }

  void reset(int start, int end, int line) {
    this.start = start;
    this.end = end;
    this.pos = start;
    this.line = line;
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
    return "\"" + text + (stop < end ? "..." : "") + "\"";
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
