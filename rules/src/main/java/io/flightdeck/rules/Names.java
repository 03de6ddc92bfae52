package io.flightdeck.rules;

import com.google.re2j.Pattern;
import io.flightdeck.model.LabelNameSyntax;

/** Prometheus's classic (legacy) name rules, which promtool and our users' tools apply. */
final class Names {
  private static final Pattern METRIC = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

  private Names() {}

  static boolean isMetricName(String name) {
    return METRIC.matcher(name).matches();
  }

  static boolean isLabelName(String name) {
    return LabelNameSyntax.isLegacy(name);
  }
}
