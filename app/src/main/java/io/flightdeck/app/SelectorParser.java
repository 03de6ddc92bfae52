package io.flightdeck.app;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses a series selector such as {@code up{job="node",instance=~"gpu.*"}} for the command-line
 * tools' {@code --match} flag. Errors name the position.
 */
final class SelectorParser {
  private final String text;
  private int pos;

  private SelectorParser(String text) {
    this.text = text;
  }

  static List<Matcher> parse(String text) {
    return new SelectorParser(text.trim()).selector();
  }

  private List<Matcher> selector() {
    List<Matcher> matchers = new ArrayList<>();
    String name = identifier();
    if (!name.isEmpty()) {
      matchers.add(Matcher.equal(Labels.METRIC_NAME, name));
    }
    skipSpaces();
    if (pos < text.length() && text.charAt(pos) == '{') {
      pos++;
      skipSpaces();
      while (pos < text.length() && text.charAt(pos) != '}') {
        String label = peek() == '"' ? quoted() : identifier();
        if (label.isEmpty()) {
          throw error("expected a label name");
        }
        skipSpaces();
        Matcher.Type type = operator();
        skipSpaces();
        matchers.add(Matcher.of(type, label, quoted()));
        skipSpaces();
        if (peek() == ',') {
          pos++;
          skipSpaces();
        } else if (peek() != '}') {
          throw error("expected , or }");
        }
      }
      if (pos >= text.length()) {
        throw error("unclosed {");
      }
      pos++;
    }
    skipSpaces();
    if (pos != text.length()) {
      throw error("unexpected text after the selector");
    }
    if (matchers.isEmpty()) {
      throw error("a selector needs a metric name or at least one matcher");
    }
    return matchers;
  }

  private Matcher.Type operator() {
    if (text.startsWith("=~", pos)) {
      pos += 2;
      return Matcher.Type.REGEX;
    }
    if (text.startsWith("!~", pos)) {
      pos += 2;
      return Matcher.Type.NOT_REGEX;
    }
    if (text.startsWith("!=", pos)) {
      pos += 2;
      return Matcher.Type.NOT_EQUAL;
    }
    if (text.startsWith("=", pos)) {
      pos++;
      return Matcher.Type.EQUAL;
    }
    throw error("expected one of = != =~ !~");
  }

  private String identifier() {
    int start = pos;
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (Character.isLetterOrDigit(c) || c == '_' || c == ':') {
        pos++;
      } else {
        break;
      }
    }
    return text.substring(start, pos);
  }

  private String quoted() {
    char quote = peek();
    if (quote != '"' && quote != '\'') {
      throw error("expected a quoted string");
    }
    pos++;
    StringBuilder sb = new StringBuilder();
    while (pos < text.length() && text.charAt(pos) != quote) {
      char c = text.charAt(pos++);
      if (c == '\\' && pos < text.length()) {
        char e = text.charAt(pos++);
        sb.append(
            switch (e) {
              case 'n' -> '\n';
              case 't' -> '\t';
              default -> e;
            });
      } else {
        sb.append(c);
      }
    }
    if (pos >= text.length()) {
      throw error("unterminated string");
    }
    pos++;
    return sb.toString();
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private void skipSpaces() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(
        "bad selector \"" + text + "\" at position " + (pos + 1) + ": " + what);
  }
}
