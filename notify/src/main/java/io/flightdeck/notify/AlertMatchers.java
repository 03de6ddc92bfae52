package io.flightdeck.notify;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import java.util.ArrayList;
import java.util.List;

/**
 * Alertmanager's matcher strings: {@code name="value"}, {@code name=~"regex"}, {@code !=}, {@code
 * !~}, values quoted or bare, several separated by commas and optionally wrapped in braces. Regexes
 * are anchored.
 */
final class AlertMatchers {
  private AlertMatchers() {}

  static boolean matchAll(List<Matcher> matchers, Labels labels) {
    for (Matcher m : matchers) {
      if (!m.matches(labels.get(m.name()))) {
        return false;
      }
    }
    return true;
  }

  /** Parses one matcher string; throws IllegalArgumentException with a message naming the text. */
  static List<Matcher> parse(String text) {
    String s = text.strip();
    if (s.startsWith("{") && s.endsWith("}")) {
      s = s.substring(1, s.length() - 1).strip();
    }
    List<Matcher> matchers = new ArrayList<>();
    int i = 0;
    while (i < s.length()) {
      int nameStart = i;
      while (i < s.length() && isNameChar(s.charAt(i), i == nameStart)) {
        i++;
      }
      String name = s.substring(nameStart, i);
      i = skipSpaces(s, i);
      Matcher.Type type = operator(s, i);
      if (name.isEmpty() || type == null) {
        throw bad(text);
      }
      i = skipSpaces(s, i + type.symbol().length());
      StringBuilder value = new StringBuilder();
      if (i < s.length() && s.charAt(i) == '"') {
        i = quoted(s, i + 1, value, text);
      } else {
        int start = i;
        while (i < s.length() && s.charAt(i) != ',') {
          i++;
        }
        value.append(s, start, i);
        if (value.toString().strip().contains("\"")) {
          throw bad(text);
        }
      }
      try {
        matchers.add(Matcher.of(type, name, value.toString().strip()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(e.getMessage() + " in matcher \"" + text + "\"");
      }
      i = skipSpaces(s, i);
      if (i < s.length()) {
        if (s.charAt(i) != ',') {
          throw bad(text);
        }
        i = skipSpaces(s, i + 1);
      }
    }
    if (matchers.isEmpty()) {
      throw bad(text);
    }
    return matchers;
  }

  private static int quoted(String s, int i, StringBuilder value, String text) {
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c == '"') {
        return i + 1;
      }
      if (c == '\\' && i + 1 < s.length()) {
        char next = s.charAt(++i);
        value.append(
            switch (next) {
              case 'n' -> '\n';
              case 't' -> '\t';
              default -> next;
            });
      } else {
        value.append(c);
      }
      i++;
    }
    throw bad(text);
  }

  private static Matcher.Type operator(String s, int i) {
    if (s.startsWith("=~", i)) {
      return Matcher.Type.REGEX;
    }
    if (s.startsWith("!~", i)) {
      return Matcher.Type.NOT_REGEX;
    }
    if (s.startsWith("!=", i)) {
      return Matcher.Type.NOT_EQUAL;
    }
    if (s.startsWith("=", i)) {
      return Matcher.Type.EQUAL;
    }
    return null;
  }

  private static boolean isNameChar(char c, boolean first) {
    return c == '_'
        || (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (!first && c >= '0' && c <= '9');
  }

  private static int skipSpaces(String s, int i) {
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
    return i;
  }

  private static IllegalArgumentException bad(String text) {
    return new IllegalArgumentException("bad matcher format: \"" + text + "\"");
  }
}
