package io.flightdeck.model;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.util.Set;

/**
 * A label matcher as in PromQL: {@code name=value}, {@code !=}, {@code =~} and {@code !~}. Regular
 * expressions have Go's RE2 syntax and semantics, as Prometheus's: fully anchored, {@code .}
 * matching newlines, and matched in time linear in the value's length (re2j), so no expression can
 * hold a thread for long. Literal, alternation, prefix, suffix and substring regexes are recognised
 * so that they are answered without the regex engine, and the index can answer the first two from
 * postings without testing every value.
 */
public final class Matcher {
  public enum Type {
    EQUAL("="),
    NOT_EQUAL("!="),
    REGEX("=~"),
    NOT_REGEX("!~");

    private final String symbol;

    Type(String symbol) {
      this.symbol = symbol;
    }

    public String symbol() {
      return symbol;
    }
  }

  private final Type type;
  private final String name;
  private final String value;
  private final Pattern pattern;
  private final RegexShape shape;

  private Matcher(Type type, String name, String value) {
    this.type = type;
    this.name = name;
    this.value = value;
    if (type == Type.REGEX || type == Type.NOT_REGEX) {
      this.pattern = compile(value);
      this.shape = RegexShape.of(value);
    } else {
      this.pattern = null;
      this.shape = null;
    }
  }

  /**
   * Checks {@code regex} on its own first, as Prometheus does, so that text such as {@code a)|(b}
   * cannot escape the anchoring group, and so that the error names the user's text.
   */
  private static Pattern compile(String regex) {
    try {
      Pattern.compile(regex);
      return Pattern.compile("^(?s:" + regex + ")$");
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(goMessage(regex, e), e);
    }
  }

  /** Go's text for the error; re2j words an unbalanced {@code )} as an internal error. */
  private static String goMessage(String regex, PatternSyntaxException e) {
    if (e.getDescription().endsWith("internal error") && "stack underflow".equals(e.getPattern())) {
      return "error parsing regexp: unexpected ): `" + regex + "`";
    }
    return "error parsing regexp: " + e.getDescription() + ": `" + e.getPattern() + "`";
  }

  public static Matcher of(Type type, String name, String value) {
    return new Matcher(type, name, value);
  }

  public static Matcher equal(String name, String value) {
    return new Matcher(Type.EQUAL, name, value);
  }

  public static Matcher notEqual(String name, String value) {
    return new Matcher(Type.NOT_EQUAL, name, value);
  }

  public static Matcher regex(String name, String value) {
    return new Matcher(Type.REGEX, name, value);
  }

  public static Matcher notRegex(String name, String value) {
    return new Matcher(Type.NOT_REGEX, name, value);
  }

  public Type type() {
    return type;
  }

  public String name() {
    return name;
  }

  public String value() {
    return value;
  }

  /** Whether a label value (the empty string for an absent label) satisfies this matcher. */
  public boolean matches(String labelValue) {
    return switch (type) {
      case EQUAL -> value.equals(labelValue);
      case NOT_EQUAL -> !value.equals(labelValue);
      case REGEX -> regexMatches(labelValue);
      case NOT_REGEX -> !regexMatches(labelValue);
    };
  }

  private boolean regexMatches(String labelValue) {
    Boolean fast = shape.matches(labelValue);
    return fast != null ? fast : pattern.matcher(labelValue).matches();
  }

  /** Whether the empty string (an absent label) matches: such matchers select series without it. */
  public boolean matchesEmpty() {
    return matches("");
  }

  /** The literal values a positive regex is limited to ({@code a|b|c}), or null. */
  public Set<String> literalAlternatives() {
    return shape == null ? null : shape.alternatives();
  }

  /** The literal prefix of a regex of the form {@code prefix.*}, or null. */
  public String literalPrefix() {
    return shape == null ? null : shape.prefix();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Matcher m && m.type == type && m.name.equals(name) && m.value.equals(value);
  }

  @Override
  public int hashCode() {
    return (type.hashCode() * 31 + name.hashCode()) * 31 + value.hashCode();
  }

  @Override
  public String toString() {
    return name + type.symbol + quote(value);
  }

  private static String quote(String s) {
    return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + '"';
  }
}
