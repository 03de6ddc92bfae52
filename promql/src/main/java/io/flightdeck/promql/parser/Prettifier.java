package io.flightdeck.promql.parser;

import java.nio.charset.StandardCharsets;

/**
 * PromQL laid out over several lines the way Prometheus's {@code format_query} does: a node whose
 * one-line text is longer than 100 bytes is split, its children one level (two spaces) deeper, one
 * per line; a node that fits stays on one line. Selectors, numbers and strings are never split.
 */
public final class Prettifier {
  private static final int MAX_LINE_BYTES = 100;
  private static final String INDENT = "  ";

  private Prettifier() {}

  /** The expression laid out, starting at column 0. */
  public static String prettify(Expr expr) {
    return pretty(expr, 0);
  }

  private static String pretty(Expr expr, int level) {
    String indent = INDENT.repeat(level);
    return switch (expr) {
      case AggregateExpr e when needsSplit(e) -> aggregate(e, level, indent);
      case BinaryExpr e when needsSplit(e) ->
          pretty(e.lhs(), level + 1)
              + "\n"
              + indent
              + Printer.binaryOperator(e)
              + "\n"
              + pretty(e.rhs(), level + 1);
      case Call e when needsSplit(e) -> call(e, level, indent);
      case ParenExpr e when needsSplit(e) ->
          indent + "(\n" + pretty(e.expr(), level + 1) + "\n" + indent + ")";
      // Prometheus indents neither a subquery that fits nor the suffix of one that does not.
      case SubqueryExpr e ->
          needsSplit(e) ? pretty(e.expr(), level) + Printer.subquerySuffix(e) : e.toString();
      case UnaryExpr e -> indent + e.op().symbol() + pretty(e.expr(), level).strip();
      default -> indent + expr;
    };
  }

  private static String aggregate(AggregateExpr e, int level, String indent) {
    StringBuilder out = new StringBuilder(indent).append(Printer.aggregateHead(e)).append("(\n");
    if (e.param() != null) {
      out.append(pretty(e.param(), level + 1)).append(",\n");
    }
    return out.append(pretty(e.expr(), level + 1))
        .append('\n')
        .append(indent)
        .append(')')
        .toString();
  }

  private static String call(Call e, int level, String indent) {
    StringBuilder out = new StringBuilder(indent).append(e.function().name()).append("(\n");
    for (int i = 0; i < e.args().size(); i++) {
      if (i > 0) {
        out.append(",\n");
      }
      out.append(pretty(e.args().get(i), level + 1));
    }
    return out.append('\n').append(indent).append(')').toString();
  }

  /** Go measures the one-line text in bytes, not characters. */
  private static boolean needsSplit(Expr expr) {
    return expr.toString().getBytes(StandardCharsets.UTF_8).length > MAX_LINE_BYTES;
  }
}
