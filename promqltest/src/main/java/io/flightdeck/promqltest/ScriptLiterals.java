package io.flightdeck.promqltest;

import io.flightdeck.promql.PromQL;
import io.flightdeck.promql.parser.NumberLiteral;
import io.flightdeck.promql.parser.ParseException;
import io.flightdeck.promql.parser.StringLiteral;
import java.util.OptionalDouble;

/**
 * Number and string literals in scripts follow Go's syntax (hex, {@code Inf}, {@code NaN}, escape
 * sequences); the PromQL parser already implements it, so literals are parsed through it instead of
 * a second copy of those rules.
 */
final class ScriptLiterals {
  private ScriptLiterals() {}

  /** The value of a whole-text number literal, or empty if {@code text} is not one. */
  static OptionalDouble parseNumber(String text) {
    if (text.isEmpty() || text.chars().anyMatch(Character::isWhitespace)) {
      return OptionalDouble.empty();
    }
    try {
      // A duration such as 5m parses as a number in PromQL but not in a script.
      if (PromQL.parse(text) instanceof NumberLiteral n && !n.duration()) {
        return OptionalDouble.of(n.value());
      }
    } catch (ParseException notANumber) {
      // falls through: the caller tries the other line forms
    }
    return OptionalDouble.empty();
  }

  /** A number that must be valid, e.g. inside a series description. */
  static double requireNumber(String text) {
    OptionalDouble value = parseNumber(text);
    if (value.isEmpty()) {
      throw new IllegalArgumentException("invalid number " + quote(text));
    }
    return value.getAsDouble();
  }

  /** Unquotes a single-, double- or back-quoted string literal with Go's escape rules. */
  static String unquote(String quoted) {
    try {
      if (PromQL.parse(quoted) instanceof StringLiteral s) {
        return s.value();
      }
    } catch (ParseException e) {
      throw new IllegalArgumentException("invalid string literal " + quoted + ": " + e.detail());
    }
    throw new IllegalArgumentException("invalid string literal " + quoted);
  }

  static String quote(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
