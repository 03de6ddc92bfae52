package io.flightdeck.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A label matcher as in PromQL: {@code name=value}, {@code !=}, {@code =~} and {@code !~}. Regular
 * expressions are fully anchored. Literal, prefix and alternation regexes are recognised so that
 * the index can answer them from postings without testing every value.
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

  private static final String REGEX_META = "\\.+*?()|[]{}^$";

  private final Type type;
  private final String name;
  private final String value;
  private final Pattern pattern;

  /** Literal alternatives when the regex is {@code a|b|c} of plain strings, else null. */
  private final Set<String> alternatives;

  /** The literal prefix when the regex is {@code prefix.*}, else null. */
  private final String prefix;

  private final boolean matchesAnything;

  private Matcher(Type type, String name, String value) {
    this.type = type;
    this.name = name;
    this.value = value;
    if (type == Type.REGEX || type == Type.NOT_REGEX) {
      try {
        this.pattern = Pattern.compile("^(?:" + value + ")$", Pattern.DOTALL);
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException(
            "invalid regular expression " + quote(value) + ": " + e.getDescription(), e);
      }
      this.alternatives = literalAlternatives(value);
      this.prefix = literalPrefix(value);
      this.matchesAnything = value.equals(".*");
    } else {
      this.pattern = null;
      this.alternatives = null;
      this.prefix = null;
      this.matchesAnything = false;
    }
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
    if (matchesAnything) {
      return true;
    }
    if (alternatives != null) {
      return alternatives.contains(labelValue);
    }
    if (prefix != null) {
      return labelValue.startsWith(prefix);
    }
    return pattern.matcher(labelValue).matches();
  }

  /** Whether the empty string (an absent label) matches: such matchers select series without it. */
  public boolean matchesEmpty() {
    return matches("");
  }

  /** The literal values a positive regex is limited to ({@code a|b|c}), or null. */
  public Set<String> literalAlternatives() {
    return alternatives;
  }

  /** The literal prefix of a regex of the form {@code prefix.*}, or null. */
  public String literalPrefix() {
    return prefix;
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

  private static boolean isLiteral(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (REGEX_META.indexOf(s.charAt(i)) >= 0) {
        return false;
      }
    }
    return true;
  }

  private static Set<String> literalAlternatives(String regex) {
    List<String> parts = new ArrayList<>();
    int start = 0;
    for (int i = 0; i <= regex.length(); i++) {
      if (i == regex.length() || regex.charAt(i) == '|') {
        String part = regex.substring(start, i);
        if (!isLiteral(part)) {
          return null;
        }
        parts.add(part);
        start = i + 1;
      }
    }
    return Set.copyOf(parts);
  }

  private static String literalPrefix(String regex) {
    if (!regex.endsWith(".*")) {
      return null;
    }
    String head = regex.substring(0, regex.length() - 2);
    return isLiteral(head) ? head : null;
  }
}
