package io.flightdeck.rules;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Expands {@code rule_files} patterns like Go's filepath.Glob: {@code *}, {@code ?} and {@code
 * [...]} within one path segment. As in Prometheus, a pattern that matches nothing (a missing file
 * included) adds nothing.
 */
final class RuleFileGlobs {
  private RuleFileGlobs() {}

  /** The matching files, sorted and without repeats, in pattern order. */
  static List<Path> expand(List<String> patterns) {
    List<Path> out = new ArrayList<>();
    for (String pattern : patterns) {
      int meta = firstMeta(pattern);
      if (meta < 0) {
        Path file = Path.of(pattern);
        if (Files.isRegularFile(file) && !out.contains(file)) {
          out.add(file);
        }
        continue;
      }
      int slash = pattern.lastIndexOf('/', meta);
      Path base = Path.of(slash < 0 ? "." : pattern.substring(0, Math.max(slash, 1)));
      int depth = (int) pattern.substring(slash + 1).chars().filter(c -> c == '/').count() + 1;
      String glob = slash < 0 ? "./" + pattern : pattern;
      PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + glob);
      if (!Files.isDirectory(base)) {
        continue;
      }
      try (Stream<Path> files = Files.walk(base, depth)) {
        TreeSet<Path> matched = new TreeSet<>();
        files
            .filter(p -> matcher.matches(p) && Files.isRegularFile(p))
            .map(p -> slash < 0 ? p.normalize() : p)
            .forEach(matched::add);
        matched.stream().filter(p -> !out.contains(p)).forEach(out::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  private static int firstMeta(String pattern) {
    for (int i = 0; i < pattern.length(); i++) {
      if ("*?[".indexOf(pattern.charAt(i)) >= 0) {
        return i;
      }
    }
    return -1;
  }
}
