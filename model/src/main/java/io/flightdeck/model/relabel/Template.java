package io.flightdeck.model.relabel;

import com.google.re2j.Matcher;
import java.util.Map;

/**
 * Go's {@code Regexp.Expand}: {@code $1}, {@code ${1}}, {@code $name} and {@code ${name}} take a
 * group, {@code $$} is a dollar. A name runs as long as letters, digits and underscores do, so
 * {@code $1x} means group "1x"; an unknown or unmatched group expands to nothing, and a {@code $}
 * that starts no reference is copied as is.
 */
final class Template {
  private Template() {}

  static boolean hasReference(String template) {
    return template.indexOf('$') >= 0;
  }

  static String expand(String template, Matcher match, Map<String, Integer> namedGroups) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    int n = template.length();
    while (i < n) {
      int dollar = template.indexOf('$', i);
      if (dollar < 0) {
        out.append(template, i, n);
        break;
      }
      out.append(template, i, dollar);
      i = dollar + 1;
      if (i < n && template.charAt(i) == '$') {
        out.append('$');
        i++;
        continue;
      }
      Reference ref = Reference.parse(template, i);
      if (ref == null) {
        out.append('$');
        continue;
      }
      i = ref.end();
      int group = ref.number() >= 0 ? ref.number() : namedGroups.getOrDefault(ref.name(), -1);
      if (group >= 0 && group <= match.groupCount() && match.start(group) >= 0) {
        out.append(match.group(group));
      }
    }
    return out.toString();
  }

  /** A group reference after a {@code $}; number is -1 when the name is not a plain number. */
  private record Reference(String name, int number, int end) {
    static Reference parse(String s, int start) {
      boolean brace = start < s.length() && s.charAt(start) == '{';
      int i = brace ? start + 1 : start;
      int nameStart = i;
      while (i < s.length()) {
        int cp = s.codePointAt(i);
        if (!Character.isLetter(cp) && !Character.isDigit(cp) && cp != '_') {
          break;
        }
        i += Character.charCount(cp);
      }
      if (i == nameStart) {
        return null;
      }
      String name = s.substring(nameStart, i);
      if (brace) {
        if (i >= s.length() || s.charAt(i) != '}') {
          return null;
        }
        i++;
      }
      return new Reference(name, number(name), i);
    }

    /** Go accepts only ASCII digits without a leading zero, below 1e8. */
    private static int number(String name) {
      if (name.length() > 1 && name.charAt(0) == '0') {
        return -1;
      }
      int num = 0;
      for (int i = 0; i < name.length(); i++) {
        char c = name.charAt(i);
        if (c < '0' || c > '9' || num >= 100_000_000) {
          return -1;
        }
        num = num * 10 + (c - '0');
      }
      return num;
    }
  }
}
