package io.flightdeck.model.relabel;

import com.google.re2j.Pattern;

/** The label-name rules relabelling validates against (Prometheus's legacy name syntax). */
final class LabelNames {
  /** A label name in which {@code $1}, {@code ${1}} or {@code ${name}} may stand for parts. */
  private static final Pattern TEMPLATE =
      Pattern.compile("^(?:(?:[a-zA-Z_]|\\$(?:\\{\\w+\\}|\\w+))+\\w*)+$");

  private LabelNames() {}

  static boolean isValid(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
      if (!letter && !(i > 0 && c >= '0' && c <= '9')) {
        return false;
      }
    }
    return true;
  }

  static boolean isValidTemplate(String name) {
    return TEMPLATE.matches(name);
  }
}
