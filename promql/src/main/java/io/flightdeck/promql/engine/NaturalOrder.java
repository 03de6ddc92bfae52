package io.flightdeck.promql.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * Natural order for {@code sort_by_label}: text is split into runs of digits and non-digits, digit
 * runs compare as numbers ({@code "a2" < "a10"}), others as text.
 */
final class NaturalOrder {
  private NaturalOrder() {}

  /** Whether {@code a} sorts before {@code b} (true also when one is a prefix of the other). */
  static boolean less(String a, String b) {
    List<String> ca = chunks(a);
    List<String> cb = chunks(b);
    for (int i = 0; i < ca.size(); i++) {
      if (i >= cb.size()) {
        return false;
      }
      String x = ca.get(i);
      String y = cb.get(i);
      Long nx = number(x);
      Long ny = number(y);
      boolean equal;
      if (nx != null && ny != null) {
        if (!nx.equals(ny)) {
          return nx < ny;
        }
        equal = true;
      } else {
        equal = x.equals(y);
        if (!equal) {
          return x.compareTo(y) < 0;
        }
      }
      if (i == ca.size() - 1) {
        return true;
      }
      if (i == cb.size() - 1) {
        return false;
      }
    }
    return false;
  }

  private static Long number(String chunk) {
    if (chunk.isEmpty() || !Character.isDigit(chunk.charAt(0)) || chunk.length() > 18) {
      return null;
    }
    return Long.parseLong(chunk);
  }

  private static List<String> chunks(String s) {
    List<String> out = new ArrayList<>();
    int i = 0;
    while (i < s.length()) {
      boolean digit = isDigit(s.charAt(i));
      int j = i;
      while (j < s.length() && isDigit(s.charAt(j)) == digit) {
        j++;
      }
      out.add(s.substring(i, j));
      i = j;
    }
    return out;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
