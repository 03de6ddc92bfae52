package io.flightdeck.testkit;

import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.stream.Collectors;

/** Inputs as a failure report prints them: strings escaped, arrays spelled out, long ones cut. */
final class ValueFormat {
  private static final int MAX_CHARS = 2000;

  private ValueFormat() {}

  static String format(Object value) {
    String text = unbounded(value);
    return text.length() <= MAX_CHARS
        ? text
        : text.substring(0, MAX_CHARS) + "... (" + text.length() + " chars in all)";
  }

  private static String unbounded(Object value) {
    return switch (value) {
      case null -> "null";
      case String s -> quoted(s);
      case Character ch -> "'" + escaped(String.valueOf(ch)) + "'";
      case Double d -> doubleText(d);
      case Float f ->
          f.isNaN() ? "NaN(0x" + Integer.toHexString(Float.floatToRawIntBits(f)) + ")" : f + "f";
      case Long l -> l + "L";
      case byte[] a -> Arrays.toString(a);
      case int[] a -> Arrays.toString(a);
      case long[] a -> Arrays.toString(a);
      case double[] a ->
          Arrays.stream(a)
              .mapToObj(ValueFormat::doubleText)
              .collect(Collectors.joining(", ", "[", "]"));
      case Object[] a ->
          Arrays.stream(a).map(ValueFormat::unbounded).collect(Collectors.joining(", ", "[", "]"));
      case Collection<?> c ->
          c.stream().map(ValueFormat::unbounded).collect(Collectors.joining(", ", "[", "]"));
      case Map<?, ?> m ->
          m.entrySet().stream()
              .map(e -> unbounded(e.getKey()) + "=" + unbounded(e.getValue()))
              .collect(Collectors.joining(", ", "{", "}"));
      default -> String.valueOf(value);
    };
  }

  /** NaNs with their bits, since payloads and signs differ. */
  private static String doubleText(double d) {
    return Double.isNaN(d)
        ? "NaN(0x" + Long.toHexString(Double.doubleToRawLongBits(d)) + ")"
        : String.valueOf(d);
  }

  private static String quoted(String s) {
    return "\"" + escaped(s) + "\"";
  }

  /** Java escapes for quotes, backslashes and every char outside printable ASCII. */
  private static String escaped(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2);
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      switch (ch) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        case '\r' -> sb.append("\\r");
        default -> {
          if (ch >= ' ' && ch <= '~') {
            sb.append(ch);
          } else {
            sb.append(String.format("\\u%04x", (int) ch));
          }
        }
      }
    }
    return sb.toString();
  }
}
