package io.flightdeck.config;

/** Prometheus's legacy label-name syntax: {@code [a-zA-Z_][a-zA-Z0-9_]*}. */
final class LabelNames {
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
}
