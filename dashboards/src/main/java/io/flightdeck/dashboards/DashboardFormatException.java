package io.flightdeck.dashboards;

/**
 * A dashboard document we refuse, with where: the JSON path ({@code $.panels[3].gridPos}) or the
 * line and column of a syntax error, and what is wrong. Nothing is saved when this is thrown.
 */
public final class DashboardFormatException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String path;

  public DashboardFormatException(String path, String message) {
    super(path.isEmpty() ? message : "at " + path + ": " + message);
    this.path = path;
  }

  /** Where the problem is: a JSON path, a line and column, or {@code ""} for the whole document. */
  public String path() {
    return path;
  }
}
