package io.flightdeck.promql.engine;

import com.google.re2j.Matcher;

/**
 * Go's {@code Regexp.Expand} for {@code label_replace}'s replacement: {@code $1}, {@code ${1}},
 * {@code $name}, {@code ${name}} and {@code $$}. A name is the longest run of letters, digits and
 * underscores ({@code $1x} names the group "1x"); an unknown group expands to nothing, and a {@code
 * $} that starts no name stays literal.
 */
final class RegexTemplate {
  private RegexTemplate() {}

  static String expand(String template, Matcher match) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < template.length()) {
      int dollar = template.indexOf('$', i);
      if (dollar < 0) {
        out.append(template, i, template.length());
        break;
      }
      out.append(template, i, dollar);
      i = dollar + 1;
      if (i < template.length() && template.charAt(i) == '$') {
        out.append('$');
        i++;
        continue;
      }
      boolean brace = i < template.length() && template.charAt(i) == '{';
      int nameStart = brace ? i + 1 : i;
      int nameEnd = nameStart;
      while (nameEnd < template.length() && isNameChar(template.codePointAt(nameEnd))) {
        nameEnd += Character.charCount(template.codePointAt(nameEnd));
      }
      boolean closed = !brace || (nameEnd < template.length() && template.charAt(nameEnd) == '}');
      if (nameEnd == nameStart || !closed) {
        out.append('$');
        continue;
      }
      out.append(group(match, template.substring(nameStart, nameEnd)));
      i = brace ? nameEnd + 1 : nameEnd;
    }
    return out.toString();
  }

  private static boolean isNameChar(int c) {
    return c == '_' || Character.isLetterOrDigit(c);
  }

  private static String group(Matcher match, String name) {
    if (name.chars().allMatch(c -> c >= '0' && c <= '9')) {
      if (name.length() > 9) {
        return "";
      }
      int index = Integer.parseInt(name);
      if (index > match.groupCount()) {
        return "";
      }
      String value = match.group(index);
      return value == null ? "" : value;
    }
    try {
      String value = match.group(name);
      return value == null ? "" : value;
    } catch (IllegalArgumentException noSuchGroup) {
      return "";
    }
  }
}
