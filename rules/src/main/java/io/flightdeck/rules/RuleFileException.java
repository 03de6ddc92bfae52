package io.flightdeck.rules;

import java.util.List;

/**
 * A rule file that is not valid. Each error is one line as promtool prints it, starting with the
 * file name, then the position ({@code line:column}) where known, the group and rule, and the
 * problem.
 */
public final class RuleFileException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final List<String> errors;

  RuleFileException(List<String> errors) {
    super(String.join("\n", errors));
    this.errors = List.copyOf(errors);
  }

  public List<String> errors() {
    return errors;
  }
}
