package io.flightdeck.api;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;

/**
 * String escaping as Go's {@code encoding/json} (and Prometheus's json-iterator in compatible mode)
 * does it, so bodies match Prometheus's byte for byte: {@code \n}, {@code \r}, {@code \t} short,
 * other control characters, the HTML-sensitive {@code <}, {@code >}, {@code &}, U+2028 and U+2029
 * as a backslash, {@code u} and four lower-case hex digits.
 */
final class GoJsonEscapes extends CharacterEscapes {
  private static final long serialVersionUID = 1L;

  private final int[] ascii = standardAsciiEscapesForJSON();

  GoJsonEscapes() {
    for (int c = 0; c < 0x20; c++) {
      if (c != '\n' && c != '\r' && c != '\t') {
        ascii[c] = ESCAPE_CUSTOM;
      }
    }
    ascii['<'] = ESCAPE_CUSTOM;
    ascii['>'] = ESCAPE_CUSTOM;
    ascii['&'] = ESCAPE_CUSTOM;
  }

  @Override
  public int[] getEscapeCodesForAscii() {
    return ascii;
  }

  @Override
  public SerializableString getEscapeSequence(int ch) {
    if (ch < 0x80 || ch == 0x2028 || ch == 0x2029) {
      return new SerializedString(String.format("\\u%04x", ch));
    }
    return null;
  }
}
