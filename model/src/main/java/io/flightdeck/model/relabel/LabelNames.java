package io.flightdeck.model.relabel;

import com.google.re2j.Pattern;
import io.flightdeck.model.LabelNameSyntax;

/** The label-name rules relabelling validates against (Prometheus's legacy name syntax). */
final class LabelNames {
  /** A label name in which {@code $1}, {@code ${1}} or {@code ${name}} may stand for parts. */
  private static final Pattern TEMPLATE =
      Pattern.compile("^(?:(?:[a-zA-Z_]|\\$(?:\\{\\w+\\}|\\w+))+\\w*)+$");

  private LabelNames() {}

  static boolean isValid(String name) {
    return LabelNameSyntax.isLegacy(name);
  }

  static boolean isValidTemplate(String name) {
    return TEMPLATE.matches(name);
  }
}
