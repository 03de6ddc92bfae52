package io.flightdeck.dashboards;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Grafana's treatment of a variable's raw values: the {@code regex} filter and capture, the {@code
 * sort} orders 0-8, and the custom type's comma list.
 */
final class VariableOptions {
  private static final Pattern CUSTOM_ITEM = Pattern.compile("(?:\\\\,|[^,])+");
  private static final Pattern FIRST_INTEGER = Pattern.compile(".*?(\\d+).*", Pattern.DOTALL);

  private VariableOptions() {}

  /**
   * Keeps the values the regex matches; a value becomes its capture group {@code value} or {@code
   * text}, else its first group, else itself. Duplicates go. The regex runs bounded ({@link
   * BoundedRegex}): one that backtracks too long fails the variable with a message naming it.
   */
  static List<String> applyRegex(List<String> values, String regex, String variable) {
    if (regex.isEmpty()) {
      return new ArrayList<>(new LinkedHashSet<>(values));
    }
    return new ArrayList<>(
        new LinkedHashSet<>(BoundedRegex.filter(regex, variable).captured(values)));
  }

  /** Grafana's sort: 0 none, 1/2 alphabetical, 3/4 numerical, 5/6 case-insensitive, 7/8 natural. */
  static List<String> sort(List<String> values, int order) {
    List<String> out = new ArrayList<>(values);
    if (order <= 0) {
      return out;
    }
    int type = (order + 1) / 2;
    Comparator<String> comparator =
        switch (type) {
          case 1 -> Comparator.naturalOrder();
          case 2 -> Comparator.comparingLong(VariableOptions::firstInteger);
          case 3 -> Comparator.comparing(v -> v.toLowerCase(Locale.ROOT));
          default -> VariableOptions::natural;
        };
    out.sort(comparator);
    if (order % 2 == 0) {
      java.util.Collections.reverse(out);
    }
    return out;
  }

  private static long firstInteger(String text) {
    Matcher m = FIRST_INTEGER.matcher(text);
    if (text.isEmpty() || !m.matches()) {
      return -1;
    }
    try {
      return Long.parseLong(m.group(1));
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
  }

  /**
   * Case-insensitive, with runs of digits compared as numbers ({@code gpu2} before {@code gpu10}).
   */
  static int natural(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      char ca = a.charAt(i);
      char cb = b.charAt(j);
      if (Character.isDigit(ca) && Character.isDigit(cb)) {
        int si = i;
        int sj = j;
        while (i < a.length() && Character.isDigit(a.charAt(i))) {
          i++;
        }
        while (j < b.length() && Character.isDigit(b.charAt(j))) {
          j++;
        }
        String na = a.substring(si, i).replaceFirst("^0+(?=.)", "");
        String nb = b.substring(sj, j).replaceFirst("^0+(?=.)", "");
        int byLength = Integer.compare(na.length(), nb.length());
        if (byLength != 0) {
          return byLength;
        }
        int byDigits = na.compareTo(nb);
        if (byDigits != 0) {
          return byDigits;
        }
        continue;
      }
      int byChar = Character.compare(Character.toLowerCase(ca), Character.toLowerCase(cb));
      if (byChar != 0) {
        return byChar;
      }
      i++;
      j++;
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  /**
   * The custom type's values: comma-separated, {@code \,} escaping a comma, {@code text : value}.
   */
  static List<String> custom(String query) {
    List<String> values = new ArrayList<>();
    Matcher m = CUSTOM_ITEM.matcher(query);
    while (m.find()) {
      String item = m.group().trim().replace("\\,", ",");
      if (item.isEmpty()) {
        continue;
      }
      String[] textAndValue = item.split("\\s:\\s", 2);
      values.add(textAndValue.length == 2 ? textAndValue[1].trim() : item);
    }
    return values;
  }
}
