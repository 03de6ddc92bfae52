package io.flightdeck.promql.parser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the queries out of Prometheus's {@code .test} scripts in the shared folder (see {@code
 * docs/promqltest-format.md}): every {@code eval} header with the failure its block expects, if
 * any. Load blocks and expected results are skipped.
 */
record TestScript(String file, int line, String command, String query, Failure failure) {

  /** A block's expected failure; message and pattern are null when it accepts any failure. */
  record Failure(String message, String pattern) {}

  private static final Pattern HEADER =
      Pattern.compile(
          "^(eval\\w*)\\s+(?:instant\\s+at\\s+\\S+|range\\s+from\\s+\\S+\\s+to\\s+\\S+\\s+step\\s+\\S+)\\s+(.+)$");

  boolean expectsFailure() {
    return failure != null;
  }

  @Override
  public String toString() {
    return file + ":" + line + " " + query;
  }

  static Path scriptsFolder() {
    String configured = System.getProperty("flightdeck.shared");
    Path shared = configured != null ? Paths.get(configured) : Paths.get("..", "..", "shared");
    Path folder = shared.resolve("promql-tests");
    if (!Files.isDirectory(folder)) {
      throw new IllegalStateException(
          "PromQL test scripts not found at " + folder.toAbsolutePath());
    }
    return folder;
  }

  static List<TestScript> all() {
    try (Stream<Path> files = Files.list(scriptsFolder())) {
      List<TestScript> all = new ArrayList<>();
      for (Path file : files.filter(p -> p.toString().endsWith(".test")).sorted().toList()) {
        all.addAll(read(file));
      }
      return all;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<TestScript> read(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    List<TestScript> evals = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String header = lines.get(i).trim();
      String command = header.split("\\s+", 2)[0].toLowerCase(Locale.ROOT);
      if (!command.startsWith("eval")) {
        continue;
      }
      Matcher m = HEADER.matcher(header);
      if (!m.matches()) {
        throw new IllegalStateException("unreadable eval header at " + file + ":" + (i + 1));
      }
      Failure failure = command.equals("eval_fail") ? new Failure(null, null) : null;
      // The block runs until the first blank or comment line.
      for (int j = i + 1; j < lines.size(); j++) {
        String body = lines.get(j).trim();
        if (body.isEmpty() || body.startsWith("#")) {
          break;
        }
        Failure expected = expectedFailure(body);
        if (expected != null) {
          failure = expected;
        }
      }
      evals.add(new TestScript(file.getFileName().toString(), i + 1, command, m.group(2), failure));
    }
    return evals;
  }

  private static Failure expectedFailure(String body) {
    if (body.startsWith("expected_fail_message ")) {
      return new Failure(body.substring("expected_fail_message ".length()).trim(), null);
    }
    if (body.startsWith("expected_fail_regexp ")) {
      return new Failure(null, body.substring("expected_fail_regexp ".length()).trim());
    }
    String[] words = body.split("\\s+", 3);
    if (words.length < 2 || !words[0].equals("expect") || !words[1].equals("fail")) {
      return null;
    }
    String rest = words.length == 3 ? words[2] : "";
    if (rest.startsWith("msg:")) {
      return new Failure(rest.substring(4).trim(), null);
    }
    if (rest.startsWith("regex:")) {
      return new Failure(null, rest.substring(6).trim());
    }
    return new Failure(null, null);
  }
}
