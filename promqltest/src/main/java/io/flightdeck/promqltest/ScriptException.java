package io.flightdeck.promqltest;

/**
 * A script that does not follow the test-script language. The message starts with {@code
 * file:line:} so a broken script can be fixed without searching.
 */
public final class ScriptException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final int line;

  ScriptException(String file, int line, String problem) {
    super(file + ":" + line + ": " + problem);
    this.file = file;
    this.line = line;
  }

  public String file() {
    return file;
  }

  /** The 1-based line of the script the problem is on. */
  public int line() {
    return line;
  }
}
