package io.flightdeck.dashboards;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.PatternSyntaxException;

/**
 * A regex a user wrote (JavaScript syntax, as Grafana's variable filter and {@code metrics(...)}
 * query take) applied to label values without letting a pattern hold the server. A pattern that
 * re2j compiles runs there, in linear time; re2j refuses what needs backtracking (lookarounds,
 * backreferences) and nothing else that JavaScript reads differently, so those, and JavaScript
 * escapes it lacks such as {@code \u0041}, run on {@code java.util.regex} over a text that stops
 * the match once one pass over a variable's values has taken more than {@link #LIMIT}.
 */
final class BoundedRegex {
  /** How long one pass of a backtracking pattern over a variable's values may take. */
  static final Duration LIMIT = Duration.ofMillis(200);

  private static final java.util.regex.Pattern SLASHED =
      java.util.regex.Pattern.compile("^/(.*)/([gimsuy]*)$", java.util.regex.Pattern.DOTALL);

  private final String source;
  private final String variable;
  private final com.google.re2j.Pattern linear;
  private final java.util.regex.Pattern backtracking;

  private BoundedRegex(
      String source,
      String variable,
      com.google.re2j.Pattern linear,
      java.util.regex.Pattern backtracking) {
    this.source = source;
    this.variable = variable;
    this.linear = linear;
    this.backtracking = backtracking;
  }

  /** A variable's filter: {@code /body/flags} or a bare body; flags i, m and s count. */
  static BoundedRegex filter(String regex, String variable) {
    java.util.regex.Matcher slashed = SLASHED.matcher(regex);
    if (slashed.matches()) {
      return compile(regex, slashed.group(1), slashed.group(2), variable);
    }
    return compile(regex, regex, "", variable);
  }

  /** A bare regex, as {@code metrics(regex)} takes it. */
  static BoundedRegex bare(String regex, String variable) {
    return compile(regex, regex, "", variable);
  }

  private static BoundedRegex compile(String source, String body, String flags, String variable) {
    try {
      int re2Flags =
          (flags.contains("i") ? com.google.re2j.Pattern.CASE_INSENSITIVE : 0)
              | (flags.contains("m") ? com.google.re2j.Pattern.MULTILINE : 0)
              | (flags.contains("s") ? com.google.re2j.Pattern.DOTALL : 0);
      return new BoundedRegex(
          source, variable, com.google.re2j.Pattern.compile(body, re2Flags), null);
    } catch (com.google.re2j.PatternSyntaxException e) {
      // Needs backtracking, or a JavaScript escape re2j lacks: the JDK's engine, bounded.
    }
    int javaFlags =
        (flags.contains("i") ? java.util.regex.Pattern.CASE_INSENSITIVE : 0)
            | (flags.contains("m") ? java.util.regex.Pattern.MULTILINE : 0)
            | (flags.contains("s") ? java.util.regex.Pattern.DOTALL : 0);
    try {
      return new BoundedRegex(
          source, variable, null, java.util.regex.Pattern.compile(body, javaFlags));
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(
          "variable \"" + variable + "\": invalid regex " + source + ": " + e.getDescription());
    }
  }

  /** Whether the linear-time engine runs it (no deadline needed). */
  boolean linear() {
    return linear != null;
  }

  /** The values the regex finds a match in, in order. */
  List<String> kept(List<String> values) {
    return pass(values, m -> m.found() ? m.value() : null);
  }

  /**
   * Each value the regex finds a match in, as its capture group {@code value}, else {@code text},
   * else its first group, else itself.
   */
  List<String> captured(List<String> values) {
    return pass(values, BoundedRegex::capture);
  }

  private static String capture(Found m) {
    if (!m.found()) {
      return null;
    }
    String captured = m.named("value");
    if (captured == null) {
      captured = m.named("text");
    }
    if (captured == null && m.groupCount() >= 1) {
      captured = m.group(1);
    }
    return captured == null ? m.value() : captured;
  }

  private List<String> pass(List<String> values, Function<Found, String> keep) {
    long deadline = System.nanoTime() + LIMIT.toNanos();
    List<String> out = new ArrayList<>();
    for (String value : values) {
      String kept;
      if (linear != null) {
        kept = keep.apply(new Re2Found(value, linear.matcher(value)));
      } else {
        try {
          var matcher = backtracking.matcher(new DeadlineText(value, deadline));
          kept = keep.apply(new JdkFound(value, matcher));
        } catch (DeadlineText.Expired e) {
          throw new IllegalArgumentException(
              "variable \""
                  + variable
                  + "\": regex "
                  + source
                  + " ran for more than "
                  + LIMIT.toMillis()
                  + " ms over "
                  + values.size()
                  + " values and was stopped; it backtracks (a lookaround or backreference"
                  + " keeps it off the linear-time engine): simplify it");
        }
      }
      if (kept != null) {
        out.add(kept);
      }
    }
    return out;
  }

  /** One value's first match, whichever engine found it. */
  private interface Found {
    boolean found();

    String value();

    int groupCount();

    String group(int index);

    /** The named group, or null when the regex has no such group or it did not take part. */
    String named(String name);
  }

  private static final class Re2Found implements Found {
    private final String value;
    private final com.google.re2j.Matcher matcher;
    private final boolean found;

    Re2Found(String value, com.google.re2j.Matcher matcher) {
      this.value = value;
      this.matcher = matcher;
      this.found = matcher.find();
    }

    @Override
    public boolean found() {
      return found;
    }

    @Override
    public String value() {
      return value;
    }

    @Override
    public int groupCount() {
      return matcher.groupCount();
    }

    @Override
    public String group(int index) {
      return matcher.group(index);
    }

    @Override
    public String named(String name) {
      try {
        return matcher.group(name);
      } catch (IllegalArgumentException e) {
        return null; // no such group
      }
    }
  }

  private static final class JdkFound implements Found {
    private final String value;
    private final java.util.regex.Matcher matcher;
    private final boolean found;

    JdkFound(String value, java.util.regex.Matcher matcher) {
      this.value = value;
      this.matcher = matcher;
      this.found = matcher.find();
    }

    @Override
    public boolean found() {
      return found;
    }

    @Override
    public String value() {
      return value;
    }

    @Override
    public int groupCount() {
      return matcher.groupCount();
    }

    @Override
    public String group(int index) {
      return matcher.group(index);
    }

    @Override
    public String named(String name) {
      try {
        return matcher.group(name);
      } catch (IllegalArgumentException e) {
        return null; // no such group
      }
    }
  }
}
