package io.flightdeck.promqltest;

import io.flightdeck.model.DurationFormat;
import io.flightdeck.model.Labels;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses a test script (promqltest-format.md sections 1 to 4) into a {@link Script}. Lines are
 * trimmed and comment lines count as blank, because a blank line is what ends a command's block.
 * Anything that breaks the language is a {@link ScriptException} naming file and line; a query that
 * is not valid PromQL is not: it is recorded on its {@link EvalCommand}.
 */
public final class ScriptParser {
  private static final String START_TIMESTAMPS = "@st";
  private static final Pattern LOAD = Pattern.compile("load(_with_nhcb)?\\s+(\\S+)");

  private final String file;
  private final List<String> lines;

  private ScriptParser(String file, String text) {
    this.file = file;
    this.lines = new ArrayList<>();
    for (String raw : text.split("\n", -1)) {
      String line = raw.strip();
      lines.add(line.startsWith("#") ? "" : line);
    }
  }

  public static Script parse(Path path) throws IOException {
    return parse(path.getFileName().toString(), Files.readString(path, StandardCharsets.UTF_8));
  }

  /**
   * @param file the name errors report the script under
   */
  public static Script parse(String file, String text) {
    return new ScriptParser(file, text).script();
  }

  private Script script() {
    List<Command> commands = new ArrayList<>();
    int i = 0;
    while (i < lines.size()) {
      String line = lines.get(i);
      if (line.isEmpty()) {
        i++;
        continue;
      }
      String word = line.split("[\\t ]+", 2)[0].toLowerCase(Locale.ROOT);
      if (word.equals("clear")) {
        commands.add(new ClearCommand(i + 1));
        i++;
      } else if (word.startsWith("load")) {
        i = load(i, commands);
      } else if (word.startsWith("eval")) {
        EvalParser.Parsed parsed = new EvalParser(this, i).parse();
        commands.add(parsed.command());
        i = parsed.next();
      } else {
        throw error(i, "invalid command " + ScriptLiterals.quote(line));
      }
    }
    return new Script(file, commands);
  }

  /**
   * Parses the load block starting at {@code header}; returns the index after it. Start-timestamp
   * lines ({@code metric@st ...}, or {@code @st ...} for every later line) are checked only so far
   * as naming the series they apply to: storage does not keep start timestamps.
   */
  private int load(int header, List<Command> commands) {
    Matcher m = LOAD.matcher(lines.get(header));
    if (!m.matches()) {
      throw error(header, "invalid load command, expected load[_with_nhcb] <step:duration>");
    }
    long step = duration(header, m.group(2), "step");
    Map<Labels, SeriesDescription> series = new LinkedHashMap<>();
    Set<Labels> startTimestamped = new LinkedHashSet<>();
    boolean allStartTimestamped = false;
    Labels pendingStart = null;
    int i = header + 1;
    for (; i < lines.size() && !lines.get(i).isEmpty(); i++) {
      String first = lines.get(i).split("[\\t ]+", 2)[0];
      if (first.endsWith(START_TIMESTAMPS)) {
        if (pendingStart != null) {
          throw error(i - 1, "@st line has no following sample line");
        }
        String metric = first.substring(0, first.length() - START_TIMESTAMPS.length());
        if (metric.isEmpty()) {
          allStartTimestamped = true;
        } else {
          pendingStart = parseSeries(i, metric + " _").labels();
        }
        continue;
      }
      SeriesDescription s = series(i);
      if (pendingStart != null) {
        if (!pendingStart.equals(s.labels())) {
          throw error(i - 1, "@st metric does not match the following sample line metric");
        }
        pendingStart = null;
        startTimestamped.add(s.labels());
      } else if (allStartTimestamped) {
        startTimestamped.add(s.labels());
      }
      series.put(s.labels(), s);
    }
    if (pendingStart != null) {
      throw error(i - 1, "@st line has no following sample line");
    }
    commands.add(
        new LoadCommand(
            header + 1,
            step,
            m.group(1) != null,
            List.copyOf(series.values()),
            List.copyOf(startTimestamped)));
    return i;
  }

  SeriesDescription series(int index) {
    String line = lines.get(index);
    if (line.split("[\\t ]+", 2)[0].endsWith(START_TIMESTAMPS)) {
      throw error(index, "start-timestamp (@st) lines belong in load blocks only");
    }
    return parseSeries(index, line);
  }

  private SeriesDescription parseSeries(int index, String line) {
    try {
      return SeriesDescriptionParser.parse(index + 1, line);
    } catch (IllegalArgumentException e) {
      throw error(index, e.getMessage());
    }
  }

  /** A script time or step, a Prometheus duration from the test epoch, in milliseconds. */
  long duration(int index, String text, String what) {
    try {
      return DurationFormat.parse(text).toMillis();
    } catch (IllegalArgumentException e) {
      throw error(
          index, "invalid " + what + " " + ScriptLiterals.quote(text) + ": " + e.getMessage());
    }
  }

  List<String> lines() {
    return lines;
  }

  ScriptException error(int index, String problem) {
    return new ScriptException(file, index + 1, problem);
  }
}
