package io.flightdeck.collector.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads procfs files, which are small and must be read whole to be consistent. */
final class ProcFile {
  private ProcFile() {}

  /**
   * The file's lines, split at line feeds with a carriage return before one dropped. One read and
   * one string instead of a decoding reader: the agent reads a dozen of these every second.
   */
  static List<String> lines(Path root, String relative) throws IOException {
    String text = new String(Files.readAllBytes(root.resolve(relative)), StandardCharsets.UTF_8);
    List<String> lines = new ArrayList<>();
    int start = 0;
    while (start < text.length()) {
      int end = text.indexOf('\n', start);
      int next = end < 0 ? text.length() : end + 1;
      int stop = end < 0 ? text.length() : end;
      if (stop > start && text.charAt(stop - 1) == '\r') {
        stop--;
      }
      lines.add(text.substring(start, stop));
      start = next;
    }
    return lines;
  }

  /** Whitespace-separated fields of a line, leading and trailing blanks ignored. */
  static String[] fields(String line) {
    List<String> fields = new ArrayList<>(16);
    int i = 0;
    int n = line.length();
    while (i < n) {
      while (i < n && isBlank(line.charAt(i))) {
        i++;
      }
      int start = i;
      while (i < n && !isBlank(line.charAt(i))) {
        i++;
      }
      if (i > start) {
        fields.add(line.substring(start, i));
      }
    }
    return fields.toArray(String[]::new);
  }

  /** The characters of the regular expression class {@code \\s}. */
  private static boolean isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
  }

  /**
   * Parses a number to the nearest double, as node_exporter's conversion of a parsed uint64 does,
   * so counters above 2^53 round exactly as node_exporter's do.
   */
  static double number(String text, String file, String line) throws MalformedProcFileException {
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw new MalformedProcFileException("not a number: " + text, file, line);
    }
  }
}
