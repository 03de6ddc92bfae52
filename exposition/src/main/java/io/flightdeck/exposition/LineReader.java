package io.flightdeck.exposition;

/** Splits a body into lines at {@code \n}, enforcing the line-length limit before any parsing. */
final class LineReader {
  private final byte[] body;
  private final int maxLineBytes;
  private int next;
  private int number;
  private int start;
  private int end;
  private boolean terminated;
  private final LineCursor cursor;

  LineReader(byte[] body, int maxLineBytes) {
    this.body = body;
    this.maxLineBytes = maxLineBytes;
    this.cursor = new LineCursor(body);
  }

  /** Moves to the next line; false when the body is used up. */
  boolean advance() throws ExpositionParseException {
    if (next >= body.length) {
      return false;
    }
    number++;
    start = next;
    int limit = (int) Math.min(body.length, (long) start + maxLineBytes + 1);
    int i = start;
    while (i < limit && body[i] != '\n') {
      i++;
    }
    if (i - start > maxLineBytes) {
      throw new ExpositionParseException(
          "line longer than the limit of " + maxLineBytes + " bytes", number, 0);
    }
    end = i;
    terminated = i < body.length;
    next = terminated ? i + 1 : i;
    return true;
  }

  /** A cursor at the start of the current line; the same instance is reused for every line. */
  LineCursor cursor() {
    cursor.reset(start, end, number);
    return cursor;
  }

  int number() {
    return number;
  }

  /** Offset of the current line's first byte in the body. */
  int start() {
    return start;
  }

  /** Offset just after the current line's last byte, before its newline. */
  int end() {
    return end;
  }

  boolean isEmpty() {
    return start == end;
  }

  /** Whether the current line ended with a newline rather than the end of the body. */
  boolean terminated() {
    return terminated;
  }

  /** Whether bytes follow the current line. */
  boolean hasMore() {
    return next < body.length;
  }

  boolean lineEquals(String ascii) {
    if (end - start != ascii.length()) {
      return false;
    }
    for (int i = 0; i < ascii.length(); i++) {
      if (body[start + i] != ascii.charAt(i)) {
        return false;
      }
    }
    return true;
  }
}
