package io.flightdeck.promql.engine;

/** Prometheus 3's label-name rule (UTF-8 validation): any non-empty valid UTF-8 text. */
final class LabelNames {
  private LabelNames() {}

  static boolean isValid(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isSurrogate(c)) {
        boolean paired =
            Character.isHighSurrogate(c)
                && i + 1 < name.length()
                && Character.isLowSurrogate(name.charAt(i + 1));
        if (!paired) {
          return false;
        }
        i++;
      }
    }
    return true;
  }
}
