package io.flightdeck.collector.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Reads procfs files, which are small and must be read whole to be consistent. */
final class ProcFile {
  private ProcFile() {}

  static List<String> lines(Path root, String relative) throws IOException {
    return Files.readAllLines(root.resolve(relative));
  }

  /** Whitespace-separated fields of a line, leading blanks ignored. */
  static String[] fields(String line) {
    String trimmed = line.strip();
    return trimmed.isEmpty() ? new String[0] : trimmed.split("\\s+");
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
