package io.flightdeck.model;

/**
 * Prometheus's legacy label-name syntax, {@code [a-zA-Z_][a-zA-Z0-9_]*}: what configuration,
 * relabelling, rule files, notification routes, pushes and imports accept as a label name (as
 * Prometheus 2's promtool does), and the names PromQL's printer writes without quotes.
 */
public final class LabelNameSyntax {
  private LabelNameSyntax() {}

  public static boolean isLegacy(String name) {
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
}
