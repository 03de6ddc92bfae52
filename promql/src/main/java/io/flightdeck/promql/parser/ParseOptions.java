package io.flightdeck.promql.parser;

/**
 * Which gated parts of the language the parser accepts. Each is on by default, because the
 * conformance scripts rely on them; all off reproduces a stock Prometheus server.
 *
 * @param experimentalFunctions the functions and aggregations Prometheus gates behind {@code
 *     --enable-feature=promql-experimental-functions} ({@code limitk}, {@code sort_by_label},
 *     {@code mad_over_time}, ...)
 * @param binopFillModifiers the {@code fill(v)}, {@code fill_left(v)} and {@code fill_right(v)}
 *     binary operator modifiers ({@code --enable-feature=promql-binop-fill-modifiers})
 * @param extendedRangeSelectors the {@code anchored} and {@code smoothed} selector modifiers
 *     ({@code --enable-feature=promql-extended-range-selectors})
 */
public record ParseOptions(
    boolean experimentalFunctions, boolean binopFillModifiers, boolean extendedRangeSelectors) {
  public static final ParseOptions DEFAULT = new ParseOptions(true, true, true);
}
