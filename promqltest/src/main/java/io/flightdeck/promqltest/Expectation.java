package io.flightdeck.promqltest;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One {@code expect <kind> [msg: text | regex: pattern]} line. Without a matcher it accepts any
 * message. The deprecated header forms ({@code eval_fail}, {@code eval_warn}, {@code eval_info},
 * {@code eval_ordered}) and {@code expected_fail_message}/{@code expected_fail_regexp} lines are
 * turned into these too, so a runner checks one form only.
 *
 * @param message exact text the error or annotation must equal ({@code msg:}, trimmed)
 * @param regex pattern found anywhere in it ({@code regex:}); Java syntax stands in for Go's RE2
 */
public record Expectation(Kind kind, Optional<String> message, Optional<Pattern> regex, int line) {

  public enum Kind {
    FAIL,
    WARN,
    NO_WARN,
    INFO,
    NO_INFO,
    ORDERED
  }

  static Expectation any(Kind kind, int line) {
    return new Expectation(kind, Optional.empty(), Optional.empty(), line);
  }

  /** Whether an error or annotation text satisfies this line. */
  public boolean matches(String text) {
    if (message.isPresent()) {
      return message.get().equals(text);
    }
    return regex.map(p -> p.matcher(text).find()).orElse(true);
  }
}
