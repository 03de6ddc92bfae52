package io.flightdeck.promql.parser;

/**
 * Which gated parts of the language the parser accepts.
 *
 * @param experimentalFunctions the functions and aggregations Prometheus gates behind {@code
 *     --enable-feature=promql-experimental-functions} ({@code limitk}, {@code sort_by_label},
 *     {@code mad_over_time}, ...). On by default, because the conformance scripts rely on them; off
 *     reproduces a stock Prometheus server.
 */
public record ParseOptions(boolean experimentalFunctions) {
  public static final ParseOptions DEFAULT = new ParseOptions(true);
}
