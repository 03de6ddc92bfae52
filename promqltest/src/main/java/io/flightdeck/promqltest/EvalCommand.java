package io.flightdeck.promqltest;

import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.ParseException;
import java.util.List;
import java.util.Optional;

/**
 * {@code eval instant at <t> <query>} or {@code eval range from <t> to <t> step <d> <query>} with
 * its body.
 *
 * @param range the evaluation times; an instant for {@code eval instant}
 * @param instant whether this is an instant query
 * @param rangeVector for an instant query whose result is a range vector ({@code expect range
 *     vector}): the steps the expected series' slots stand for. The query is then evaluated at its
 *     end instead of at {@code range}.
 * @param expr the parsed query, empty if it does not parse; then {@code parseError} says why, so a
 *     runner can report it or compare it with an expected failure
 * @param expectations the {@code expect} lines, including those implied by deprecated forms
 */
public record EvalCommand(
    int line,
    String query,
    boolean instant,
    TimeRange range,
    Optional<TimeRange> rangeVector,
    Optional<Expr> expr,
    Optional<ParseException> parseError,
    List<Expectation> expectations,
    ExpectedResult expected)
    implements Command {

  public EvalCommand {
    expectations = List.copyOf(expectations);
  }

  /** The time an instant query runs at: the header's time, or the expected range vector's end. */
  public long evaluationTimeMs() {
    return rangeVector.map(TimeRange::endMs).orElse(range.endMs());
  }

  public List<Expectation> expectations(Expectation.Kind kind) {
    return expectations.stream().filter(e -> e.kind() == kind).toList();
  }

  public boolean failExpected() {
    return !expectations(Expectation.Kind.FAIL).isEmpty();
  }

  public boolean ordered() {
    return !expectations(Expectation.Kind.ORDERED).isEmpty();
  }

  /** True if the expected result contains native histograms, which we cannot evaluate yet. */
  public boolean expectsNativeHistograms() {
    return expected instanceof ExpectedResult.Series s
        && s.series().stream().anyMatch(SeriesDescription::hasHistograms);
  }
}
