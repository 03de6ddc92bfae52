package io.flightdeck.dashboards;

/** Null-safe text helpers the records share. */
final class Text {
  private Text() {}

  static String orEmpty(String text) {
    return text == null ? "" : text;
  }
}
