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
    try {
      Expr expr = new SyntaxParser(query, input, options).parseQuery();
      if (TreeDepth.of(expr) > SyntaxParser.MAX_DEPTH) {
        throw new ParseException(query, expr.position(), tooDeep());
      }
      return TypeChecker.check(expr, query, input);
    } catch (StackOverflowError e) {
      // The depth limit leaves room on a default 1 MiB stack; a caller already deep in its own
      // stack may still run out. Parsing shares no state, so the error is safely a bad query.
      throw new ParseException(query, new PositionRange(0, input.length), tooDeep());
    }
  }

  private static String tooDeep() {
    return "expression nesting depth exceeds the limit of " + SyntaxParser.MAX_DEPTH;
  }
}
