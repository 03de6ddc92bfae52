package io.flightdeck.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The shapes of anchored regexes that plain string operations answer, as Prometheus's fast regex
 * matcher recognises them: {@code .*}, {@code .+}, literal alternations {@code a|b|c} (also in one
 * group), {@code lit.*}, {@code .*lit} and {@code .*lit.*}. Literals may escape metacharacters
 * ({@code a\.b}). Anything else is left to the regex engine.
 */
record RegexShape(
    Set<String> alternatives, String prefix, String suffix, String contains, Kind kind) {
  enum Kind {
    ANY,
    NON_EMPTY,
    ALTERNATIVES,
    PREFIX,
    SUFFIX,
    CONTAINS,
    OTHER
  }

  private static final String META = "\\.+*?()|[]{}^$";

  static RegexShape of(String regex) {
    switch (regex) {
      case ".*" -> {
        return new RegexShape(null, null, null, null, Kind.ANY);
      }
      case ".+" -> {
        return new RegexShape(null, null, null, null, Kind.NON_EMPTY);
      }
      default -> {}
    }
    Set<String> alternatives = literalAlternatives(ungroup(regex));
    if (alternatives != null) {
      return new RegexShape(alternatives, null, null, null, Kind.ALTERNATIVES);
    }
    boolean leadingAny = regex.startsWith(".*");
    boolean trailingAny = endsWithUnescapedAny(regex);
    if (leadingAny && trailingAny && regex.length() >= 4) {
      String middle = unescape(regex.substring(2, regex.length() - 2));
      if (middle != null) {
        return new RegexShape(null, null, null, middle, Kind.CONTAINS);
      }
    } else if (trailingAny) {
      String head = unescape(regex.substring(0, regex.length() - 2));
      if (head != null) {
        return new RegexShape(null, head, null, null, Kind.PREFIX);
      }
    } else if (leadingAny) {
      String tail = unescape(regex.substring(2));
      if (tail != null) {
        return new RegexShape(null, null, tail, null, Kind.SUFFIX);
      }
    }
    return new RegexShape(null, null, null, null, Kind.OTHER);
  }

  /** The answer without the regex engine, or null when this shape needs it. */
  Boolean matches(String value) {
    return switch (kind) {
      case ANY -> true;
      case NON_EMPTY -> !value.isEmpty();
      case ALTERNATIVES -> alternatives.contains(value);
      case PREFIX -> value.startsWith(prefix);
      case SUFFIX -> value.endsWith(suffix);
      case CONTAINS -> value.contains(contains);
      case OTHER -> null;
    };
  }

  /** {@code .*} at the end that is not an escaped dot followed by a star. */
  private static boolean endsWithUnescapedAny(String regex) {
    if (!regex.endsWith(".*")) {
      return false;
    }
    int backslashes = 0;
    for (int i = regex.length() - 3; i >= 0 && regex.charAt(i) == '\\'; i--) {
      backslashes++;
    }
    return backslashes % 2 == 0;
  }

  /** {@code (a|b)} or {@code (?:a|b)} as {@code a|b}; anything else unchanged. */
  private static String ungroup(String regex) {
    String inner;
    if (regex.startsWith("(?:") && regex.endsWith(")")) {
      inner = regex.substring(3, regex.length() - 1);
    } else if (regex.startsWith("(") && !regex.startsWith("(?") && regex.endsWith(")")) {
      inner = regex.substring(1, regex.length() - 1);
    } else {
      return regex;
    }
    // Only when no other parenthesis is left: "(a)|(b)" is not "a)|(b".
    return inner.indexOf('(') < 0 && inner.indexOf(')') < 0 ? inner : regex;
  }

  private static Set<String> literalAlternatives(String regex) {
    List<String> parts = new ArrayList<>();
    int start = 0;
    int i = 0;
    while (i <= regex.length()) {
      if (i == regex.length() || regex.charAt(i) == '|') {
        String part = unescape(regex.substring(start, i));
        if (part == null) {
          return null;
        }
        parts.add(part);
        start = i + 1;
      }
      // An escaped character never splits; unescape rejects a backslash at the end.
      boolean escape = i < regex.length() && regex.charAt(i) == '\\';
      i = escape ? Math.min(i + 2, regex.length()) : i + 1;
    }
    return Set.copyOf(parts);
  }

  /**
   * The text a regex without operators matches: plain characters and escaped metacharacters ({@code
   * \.}, {@code \\}), or null when it has anything else (an operator, a class, {@code \d}).
   */
  static String unescape(String regex) {
    StringBuilder literal = new StringBuilder(regex.length());
    for (int i = 0; i < regex.length(); i++) {
      char c = regex.charAt(i);
      if (c == '\\') {
        if (i + 1 >= regex.length() || META.indexOf(regex.charAt(i + 1)) < 0) {
          return null;
        }
        literal.append(regex.charAt(++i));
      } else if (META.indexOf(c) >= 0) {
        return null;
      } else {
        literal.append(c);
      }
    }
    return literal.toString();
  }
}
