package io.flightdeck.config;

/**
 * A configuration file that cannot be used. The message reads {@code FILE:LINE:COLUMN: FIELD:
 * REASON}, where FIELD is the path to the offending value, such as {@code
 * scrape_configs[0].scrape_timeout}, and is left out (with its colon) for errors about the whole
 * file. REASON uses Prometheus's wording wherever Prometheus has the same check.
 */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final int line;
  private final int column;
  private final String field;
  private final String reason;

  public ConfigException(String file, int line, int column, String field, String reason) {
    super(format(file, line, column, field, reason));
    this.file = file;
    this.line = line;
    this.column = column;
    this.field = field;
    this.reason = reason;
  }

  private static String format(String file, int line, int column, String field, String reason) {
    String where = file + ":" + line + ":" + column + ": ";
    return field.isEmpty() ? where + reason : where + field + ": " + reason;
  }

  public String file() {
    return file;
  }

  public int line() {
    return line;
  }

  public int column() {
    return column;
  }

  /** The path to the offending value, or the empty string for the whole file. */
  public String field() {
    return field;
  }

  /** The message without the location. */
  public String reason() {
    return reason;
  }
}
