package io.flightdeck.promqltest;

import io.flightdeck.promql.PromQL;
import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.ParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Parses one eval block: the header (section 4.1 of promqltest-format.md) and its body lines up to
 * the next blank line (section 4.2).
 */
final class EvalParser {
  private static final Pattern INSTANT =
      Pattern.compile("eval(?:_(fail|warn|ordered|info))?\\s+instant\\s+(?:at\\s+(\\S+)\\s+)?(.+)");
  private static final Pattern RANGE =
      Pattern.compile(
          "eval(?:_(fail|warn|info))?\\s+range\\s+from\\s+(.+)\\s+to\\s+(.+)\\s+step\\s+(\\S+)\\s+(.+)");
  private static final Pattern EXPECT =
      Pattern.compile(
          "expect\\s+(ordered|fail|warn|no_warn|info|no_info)(?:\\s+(regex|msg):(.+))?");
  private static final Pattern EXPECT_RANGE_VECTOR =
      Pattern.compile("expect range vector\\s+from\\s+(.+)\\s+to\\s+(.+)\\s+step\\s+(.+)");
  private static final String EXPECT_STRING = "expect string";

  record Parsed(EvalCommand command, int next) {}

  private final ScriptParser script;
  private final int header;
  private final List<Expectation> expectations = new ArrayList<>();
  private final List<SeriesDescription> series = new ArrayList<>();
  private ExpectedResult other;
  private Optional<TimeRange> rangeVector = Optional.empty();

  EvalParser(ScriptParser script, int header) {
    this.script = script;
    this.header = header;
  }

  Parsed parse() {
    String line = script.lines().get(header);
    Matcher instant = INSTANT.matcher(line);
    Matcher range = RANGE.matcher(line);
    boolean isInstant = instant.matches();
    if (!isInstant && !range.matches()) {
      throw script.error(
          header,
          "invalid eval command, expected eval[_fail|_warn|_info|_ordered] instant at <time> <query>"
              + " or eval[_fail|_warn|_info] range from <time> to <time> step <duration> <query>");
    }
    Matcher m = isInstant ? instant : range;
    TimeRange times;
    if (isInstant) {
      if (m.group(2) == null) {
        throw script.error(header, "eval instant needs 'at <time>'");
      }
      times = TimeRange.instant(script.duration(header, m.group(2), "time"));
    } else {
      times = timeRange(header, m.group(2), m.group(3), m.group(4));
    }
    addLegacyExpectation(m.group(1));
    String query = isInstant ? m.group(3) : m.group(5);
    int next = body(isInstant);
    Optional<Expr> expr = Optional.empty();
    Optional<ParseException> parseError = Optional.empty();
    try {
      expr = Optional.of(PromQL.parse(query));
    } catch (ParseException e) {
      parseError = Optional.of(e);
    }
    ExpectedResult expected = other != null ? other : new ExpectedResult.Series(series);
    EvalCommand command =
        new EvalCommand(
            header + 1,
            query,
            isInstant,
            times,
            rangeVector,
            expr,
            parseError,
            expectations,
            expected);
    return new Parsed(command, next);
  }

  private void addLegacyExpectation(String modifier) {
    if (modifier != null) {
      expectations.add(
          Expectation.any(Expectation.Kind.valueOf(modifier.toUpperCase(Locale.ROOT)), header + 1));
    }
  }

  /** Parses the body lines; returns the index of the first line after the block. */
  private int body(boolean isInstant) {
    List<String> lines = script.lines();
    boolean legacyFail = failExpected();
    int i = header + 1;
    for (; i < lines.size() && !lines.get(i).isEmpty(); i++) {
      String line = lines.get(i);
      if (legacyFail && line.startsWith("expected_fail_message")) {
        String message = line.substring("expected_fail_message".length()).strip();
        replaceFailMatcher(
            new Expectation(Expectation.Kind.FAIL, Optional.of(message), Optional.empty(), i + 1));
        return i + 1;
      }
      if (legacyFail && line.startsWith("expected_fail_regexp")) {
        String pattern = line.substring("expected_fail_regexp".length()).strip();
        replaceFailMatcher(
            new Expectation(
                Expectation.Kind.FAIL, Optional.empty(), Optional.of(regex(i, pattern)), i + 1));
        return i + 1;
      }
      if (line.startsWith("expect range vector")) {
        Matcher m = EXPECT_RANGE_VECTOR.matcher(line);
        if (!m.matches()) {
          throw script.error(i, "invalid range vector definition " + ScriptLiterals.quote(line));
        }
        rangeVector = Optional.of(timeRange(i, m.group(1), m.group(2), m.group(3)));
      } else if (line.startsWith(EXPECT_STRING)) {
        setOther(i, new ExpectedResult.Text(expectedString(i, line), i + 1));
      } else if (line.split(" ", 2)[0].equals("expect")) {
        expectations.add(expectation(i, line));
        validateExpectations(i);
      } else {
        OptionalDouble scalar = ScriptLiterals.parseNumber(line);
        if (scalar.isPresent()) {
          // A scalar result ends the block, as upstream: a following line starts a new command.
          setOther(i, new ExpectedResult.Scalar(scalar.getAsDouble(), i + 1));
          return i + 1;
        }
        SeriesDescription s = script.series(i);
        if (s.slots().size() > 1 && isInstant && rangeVector.isEmpty()) {
          throw script.error(
              i,
              "expecting multiple values in instant evaluation not allowed; use 'expect range"
                  + " vector' for a range vector result of an instant query");
        }
        if (other != null) {
          throw script.error(i, "a series line cannot be mixed with a scalar or string result");
        }
        series.add(s);
      }
    }
    return i;
  }

  private boolean failExpected() {
    return expectations.stream().anyMatch(e -> e.kind() == Expectation.Kind.FAIL);
  }

  private void replaceFailMatcher(Expectation fail) {
    expectations.removeIf(e -> e.kind() == Expectation.Kind.FAIL);
    expectations.add(fail);
  }

  private void setOther(int index, ExpectedResult result) {
    if (other != null || !series.isEmpty()) {
      throw script.error(index, "an eval block can expect only one result");
    }
    other = result;
  }

  private TimeRange timeRange(int index, String from, String to, String step) {
    long start = script.duration(index, from.strip(), "start time");
    long end = script.duration(index, to.strip(), "end time");
    if (end < start) {
      throw script.error(
          index, "end time (" + to.strip() + ") is before start time (" + from.strip() + ")");
    }
    return new TimeRange(start, end, script.duration(index, step.strip(), "step"));
  }

  private Expectation expectation(int index, String line) {
    Matcher m = EXPECT.matcher(line);
    if (!m.matches()) {
      throw script.error(
          index,
          "invalid expect line, expected expect <fail|warn|no_warn|info|no_info|ordered>"
              + " [msg|regex: <text>]");
    }
    Expectation.Kind kind = Expectation.Kind.valueOf(m.group(1).toUpperCase(Locale.ROOT));
    if (m.group(2) == null) {
      return Expectation.any(kind, index + 1);
    }
    String text = m.group(3).strip();
    return m.group(2).equals("msg")
        ? new Expectation(kind, Optional.of(text), Optional.empty(), index + 1)
        : new Expectation(kind, Optional.empty(), Optional.of(regex(index, text)), index + 1);
  }

  private void validateExpectations(int index) {
    if (has(Expectation.Kind.INFO) && has(Expectation.Kind.NO_INFO)) {
      throw script.error(index, "info and no_info cannot be used together");
    }
    if (has(Expectation.Kind.WARN) && has(Expectation.Kind.NO_WARN)) {
      throw script.error(index, "warn and no_warn cannot be used together");
    }
    if (expectations.stream().filter(e -> e.kind() == Expectation.Kind.FAIL).count() > 1) {
      throw script.error(index, "only one expect fail line is allowed");
    }
  }

  private boolean has(Expectation.Kind kind) {
    return expectations.stream().anyMatch(e -> e.kind() == kind);
  }

  private Pattern regex(int index, String pattern) {
    try {
      return Pattern.compile(pattern);
    } catch (PatternSyntaxException e) {
      throw script.error(index, "invalid regex " + pattern + ": " + e.getDescription());
    }
  }

  /** {@code expect string "text"}: one Go-quoted literal (double quotes or back-quotes). */
  private String expectedString(int index, String line) {
    String literal = line.substring(EXPECT_STRING.length()).strip();
    if (literal.isEmpty() || !(literal.startsWith("\"") || literal.startsWith("`"))) {
      throw script.error(index, "expect string needs a quoted string literal");
    }
    try {
      return ScriptLiterals.unquote(literal);
    } catch (IllegalArgumentException e) {
      throw script.error(index, "expect string literal is not correctly quoted: " + literal);
    }
  }
}
