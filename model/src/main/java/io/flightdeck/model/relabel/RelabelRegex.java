package io.flightdeck.model.relabel;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;

/**
 * A relabelling regular expression in RE2 syntax (as Go's), anchored at both ends as Prometheus
 * anchors it. Equal when the source texts are equal. Immutable and thread-safe.
 */
public final class RelabelRegex {
  /** Prometheus's default, {@code (.*)}. */
  public static final RelabelRegex DEFAULT = of("(.*)");

  private final String source;
  private final Pattern pattern;

  private RelabelRegex(String source, Pattern pattern) {
    this.source = source;
    this.pattern = pattern;
  }

  /**
   * Compiles {@code source} anchored as {@code ^(?:source)$}.
   *
   * @throws IllegalArgumentException with Go's "error parsing regexp" message when it is invalid
   */
  public static RelabelRegex of(String source) {
    String anchored = "^(?:" + source + ")$";
    try {
      return new RelabelRegex(source, Pattern.compile(anchored));
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(
          "error parsing regexp: " + e.getDescription() + ": `" + e.getPattern() + "`", e);
    }
  }

  /** The expression as written, without the anchors. */
  public String source() {
    return source;
  }

  public boolean matches(String input) {
    return pattern.matcher(input).matches();
  }

  /** A matcher that has matched all of {@code input}, or null when it does not match. */
  Matcher match(String input) {
    Matcher m = pattern.matcher(input);
    return m.matches() ? m : null;
  }

  Pattern pattern() {
    return pattern;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RelabelRegex other && source.equals(other.source);
  }

  @Override
  public int hashCode() {
    return source.hashCode();
  }

  @Override
  public String toString() {
    return source;
  }
}
