package io.flightdeck.promql.parser;

/**
 * Parses PromQL as Prometheus 3.14 does: syntax, then types. Every invalid query fails with a
 * {@link ParseException} whose message is the one Prometheus gives. Stateless and thread-safe.
 */
public final class PromQLParser {
  private PromQLParser() {}

  /**
   * The checked tree of a query.
   *
   * @throws ParseException if the query is not valid PromQL, or nests deeper than {@value
   *     SyntaxParser#MAX_DEPTH} levels (a limit of ours; Prometheus has none)
   */
  public static Expr parse(String query, ParseOptions options) {
    byte[] input = Utf8.encode(query);
    Expr expr = new SyntaxParser(query, input, options).parseQuery();
    if (TreeDepth.of(expr) > SyntaxParser.MAX_DEPTH) {
      throw new ParseException(
          query,
          expr.position(),
          "expression nesting depth exceeds the limit of " + SyntaxParser.MAX_DEPTH);
    }
    return TypeChecker.check(expr, query, input);
  }
}
