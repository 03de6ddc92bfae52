package io.flightdeck.exposition;

/**
 * The one failure a parser reports: the body is not valid in the chosen format, or breaks a limit
 * from {@link ParseOptions}. Line and column are 1-based; the column counts bytes and is 0 when the
 * failure concerns the whole line or body.
 */
public final class ExpositionParseException extends Exception {
  private final int line;
  private final int column;

  public ExpositionParseException(String reason, int line, int column) {
    super(reason + " [line=" + line + (column > 0 ? ", column=" + column : "") + "]");
    this.line = line;
    this.column = column;
  }

  public int line() {
    return line;
  }

  public int column() {
    return column;
  }
}
