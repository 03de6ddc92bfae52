package io.flightdeck.rules;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import io.flightdeck.model.GoQuote;
import java.util.Map;

/**
 * The templates' {@code reReplaceAll} and {@code match}, with Go's regexp semantics: RE2 syntax,
 * matched by re2j in time linear in the text, since the text is usually a label value that any
 * client can write. Replacement templates expand {@code $1}, {@code ${1}}, {@code $name} and {@code
 * $$} as Go's {@code Regexp.Expand} does.
 */
final class TemplateRegex {
  private TemplateRegex() {}

  /** Go's {@code regexp.MatchString}: whether the expression matches anywhere in {@code text}. */
  static boolean find(String regex, String text) {
    return compile(regex).matcher(text).find();
  }

  /** Go's {@code Regexp.ReplaceAllString}. */
  static String replaceAll(String regex, String replacement, String text) {
    Pattern pattern = compile(regex);
    Matcher m = pattern.matcher(text);
    StringBuilder out = new StringBuilder();
    int lastMatchEnd = 0;
    int searchFrom = 0;
    while (searchFrom <= text.length() && m.find(searchFrom)) {
      out.append(text, lastMatchEnd, m.start());
      // As Go: no replacement for an empty match right after the previous match.
      if (m.end() > lastMatchEnd || m.start() == 0) {
        expand(out, replacement, m, pattern.namedGroups());
      }
      lastMatchEnd = m.end();
      int width =
          searchFrom < text.length() ? Character.charCount(text.codePointAt(searchFrom)) : 1;
      searchFrom = Math.max(searchFrom + width, m.end());
    }
    out.append(text, lastMatchEnd, text.length());
    return out.toString();
  }

  private static Pattern compile(String regex) {
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new TemplateException(
          "regexp: Compile("
              + goQuote(regex)
              + "): error parsing regexp: "
              + e.getDescription()
              + ": `"
              + e.getPattern()
              + "`");
    }
  }

  /** Go's {@code regexp.quote}: back quotes when the text allows them. */
  private static String goQuote(String s) {
    boolean backquotable =
        s.chars().allMatch(c -> c == '\t' || (c >= ' ' && c != '`' && c != 0x7f));
    return backquotable ? "`" + s + "`" : GoQuote.quote(s);
  }

  /** Appends {@code template} with each {@code $name} replaced by that group's text. */
  private static void expand(
      StringBuilder out, String template, Matcher m, Map<String, Integer> named) {
    int i = 0;
    while (i < template.length()) {
      char c = template.charAt(i);
      if (c != '$' || i + 1 >= template.length()) {
        out.append(c);
        i++;
        continue;
      }
      if (template.charAt(i + 1) == '$') {
        out.append('$');
        i += 2;
        continue;
      }
      int nameStart;
      int nameEnd;
      int next;
      if (template.charAt(i + 1) == '{') {
        nameStart = i + 2;
        nameEnd = nameStart;
        while (nameEnd < template.length() && isNameChar(template.charAt(nameEnd))) {
          nameEnd++;
        }
        next = nameEnd + 1;
        if (nameEnd == nameStart
            || nameEnd >= template.length()
            || template.charAt(nameEnd) != '}') {
          out.append('$'); // malformed: Go keeps the dollar as text
          i++;
          continue;
        }
      } else {
        nameStart = i + 1;
        nameEnd = nameStart;
        while (nameEnd < template.length() && isNameChar(template.charAt(nameEnd))) {
          nameEnd++;
        }
        next = nameEnd;
        if (nameEnd == nameStart) {
          out.append('$');
          i++;
          continue;
        }
      }
      out.append(group(template.substring(nameStart, nameEnd), m, named));
      i = next;
    }
  }

  /** A group's text by number or name; Go expands an unknown or unmatched group to nothing. */
  private static String group(String name, Matcher m, Map<String, Integer> named) {
    Integer index = null;
    if (name.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
      try {
        index = Integer.parseInt(name);
      } catch (NumberFormatException e) {
        return ""; // more digits than any group count
      }
    } else {
      index = named.get(name);
    }
    if (index == null || index > m.groupCount()) {
      return "";
    }
    String text = m.group(index);
    return text == null ? "" : text;
  }

  private static boolean isNameChar(char c) {
    return c == '_' || Character.isLetterOrDigit(c);
  }
}
