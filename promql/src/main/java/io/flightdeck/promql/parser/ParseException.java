package io.flightdeck.promql.parser;

/**
 * A query that is not valid PromQL. The message is exactly Prometheus's, {@code 1:5: parse error:
 * unexpected <op:+>}: line and column (counted in bytes, from 1) of the error's start, then the
 * description, which {@link #detail()} gives alone.
 */
public final class ParseException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient PositionRange position;
  private final String detail;
  private final String query;

  ParseException(String query, PositionRange position, String detail) {
    super(locate(query, position.start()) + ": parse error: " + detail);
    this.position = position;
    this.detail = detail;
    this.query = query;
  }

  /** The byte range of the query the error is about. */
  public PositionRange position() {
    return position;
  }

  /** The description without the position ({@code unexpected <op:+>}). */
  public String detail() {
    return detail;
  }

  public String query() {
    return query;
  }

  /** Prometheus's {@code line:column}, or its words for an empty query or a position outside. */
  private static String locate(String query, int pos) {
    if (query.isEmpty()) {
      return "unknown position";
    }
    byte[] bytes = Utf8.encode(query);
    if (pos < 0 || pos > bytes.length) {
      return "invalid position";
    }
    int line = 1;
    int lastLineBreak = -1;
    for (int i = 0; i < pos; i++) {
      if (bytes[i] == '\n') {
        lastLineBreak = i;
        line++;
      }
    }
    return line + ":" + (pos - lastLineBreak);
  }
}
