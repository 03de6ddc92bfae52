package io.flightdeck.promql;

import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.ParseException;
import io.flightdeck.promql.parser.ParseOptions;
import io.flightdeck.promql.parser.PromQLParser;

/**
 * The entry point to PromQL. {@code parse} returns the checked syntax tree of a query; the tree's
 * {@code toString()} is the query in canonical form, as Prometheus prints it.
 */
public final class PromQL {
  private static final ParsedQueries DEFAULT_OPTIONS_CACHE = new ParsedQueries(1024);

  private PromQL() {}

  /**
   * Parses a query with {@link ParseOptions#DEFAULT} (experimental functions enabled, as the
   * conformance scripts assume).
   *
   * @throws ParseException with Prometheus's message (e.g. {@code 1:5: parse error: unexpected end
   *     of input}) if the query is not valid PromQL
   */
  public static Expr parse(String query) {
    return DEFAULT_OPTIONS_CACHE.parse(query, ParseOptions.DEFAULT);
  }

  /** Parses a query with the given language options. */
  public static Expr parse(String query, ParseOptions options) {
    return PromQLParser.parse(query, options);
  }
}
