package io.flightdeck.promql.parser;

import io.flightdeck.model.LabelNameSyntax;
import io.flightdeck.model.Matcher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Canonical PromQL text for a tree, character for character what Prometheus's {@code String()}
 * prints: keywords in lower case, single spaces around operators, {@code by (...)} before the
 * arguments, matchers sorted, durations in Prometheus's notation, strings double-quoted with Go
 * escapes.
 */
final class Printer {
  private final StringBuilder out = new StringBuilder();

  private Printer() {}

  static String print(Expr expr) {
    return printed(p -> p.expr(expr));
  }

  static String print(DurationTerm term) {
    return printed(p -> p.duration(term));
  }

  private void expr(Expr expr) {
    switch (expr) {
      case AggregateExpr e -> aggregate(e);
      case BinaryExpr e -> binary(e);
      case Call e -> call(e);
      case MatrixSelector e -> matrix(e);
      case SubqueryExpr e -> subquery(e);
      case NumberLiteral e -> number(e);
      case ParenExpr e -> {
        out.append('(');
        expr(e.expr());
        out.append(')');
      }
      case StringLiteral e -> out.append(GoText.quote(e.value()));
      case UnaryExpr e -> {
        out.append(e.op().symbol());
        expr(e.expr());
      }
      case VectorSelector e -> {
        selector(e);
        at(e.timestamp(), e.atAnchor());
        extended(e);
        offset(e.originalOffset(), e.originalOffsetExpr());
      }
    }
  }

  /** The operator with its grouping and a trailing space when grouped: {@code sum by (job) }. */
  static String aggregateHead(AggregateExpr e) {
    return printed(p -> p.aggregateHeadOf(e));
  }

  /** The operator with its modifiers, no spaces around: {@code * on (job) group_left (x)}. */
  static String binaryOperator(BinaryExpr e) {
    return printed(p -> p.operator(e));
  }

  /** What follows a subquery's expression: {@code [5m:1m] @ 100.000 offset 1m}. */
  static String subquerySuffix(SubqueryExpr e) {
    return printed(p -> p.subqueryRange(e));
  }

  private static String printed(Consumer<Printer> body) {
    Printer printer = new Printer();
    body.accept(printer);
    return printer.out.toString();
  }

  private void aggregate(AggregateExpr e) {
    aggregateHeadOf(e);
    out.append('(');
    if (e.param() != null) {
      expr(e.param());
      out.append(", ");
    }
    expr(e.expr());
    out.append(')');
  }

  private void aggregateHeadOf(AggregateExpr e) {
    out.append(e.op().keyword());
    if (e.without()) {
      out.append(" without (");
      labels(e.grouping());
      out.append(") ");
    } else if (!e.grouping().isEmpty()) {
      out.append(" by (");
      labels(e.grouping());
      out.append(") ");
    }
  }

  private void binary(BinaryExpr e) {
    expr(e.lhs());
    out.append(' ');
    operator(e);
    out.append(' ');
    expr(e.rhs());
  }

  private void operator(BinaryExpr e) {
    out.append(e.op().symbol());
    if (e.returnBool()) {
      out.append(" bool");
    }
    VectorMatching m = e.matching();
    if (m != null) {
      boolean grouped =
          m.cardinality() == Cardinality.MANY_TO_ONE || m.cardinality() == Cardinality.ONE_TO_MANY;
      if (!m.matchingLabels().isEmpty() || m.on() || grouped) {
        out.append(m.on() ? " on (" : " ignoring (");
        labels(m.matchingLabels());
        out.append(')');
      }
      if (grouped) {
        out.append(m.cardinality() == Cardinality.MANY_TO_ONE ? " group_left (" : " group_right (");
        labels(m.include());
        out.append(')');
      }
      fill(m);
    }
  }

  /** One {@code fill} when both sides fill with the same value, as Prometheus prints it. */
  private void fill(VectorMatching m) {
    Double lhs = m.fillLhs();
    Double rhs = m.fillRhs();
    // Compared as Go does: fill(NaN) prints as two modifiers, fill(0) equals fill(-0).
    if (lhs != null && rhs != null && lhs.doubleValue() == rhs.doubleValue()) {
      out.append(" fill (").append(GoFormat.g(lhs)).append(')');
      return;
    }
    if (lhs != null) {
      out.append(" fill_left (").append(GoFormat.g(lhs)).append(')');
    }
    if (rhs != null) {
      out.append(" fill_right (").append(GoFormat.g(rhs)).append(')');
    }
  }

  private void call(Call e) {
    out.append(e.function().name()).append('(');
    for (int i = 0; i < e.args().size(); i++) {
      if (i > 0) {
        out.append(", ");
      }
      expr(e.args().get(i));
    }
    out.append(')');
  }

  private void matrix(MatrixSelector e) {
    VectorSelector vs = e.selector();
    selector(vs);
    out.append('[');
    rangeOrExpr(e.range(), e.rangeExpr());
    out.append(']');
    extended(vs);
    at(vs.timestamp(), vs.atAnchor());
    offset(vs.originalOffset(), vs.originalOffsetExpr());
  }

  /** Prometheus prints these after {@code @} on an instant selector but before it on a range. */
  private void extended(VectorSelector vs) {
    if (vs.anchored()) {
      out.append(" anchored");
    } else if (vs.smoothed()) {
      out.append(" smoothed");
    }
  }

  private void subquery(SubqueryExpr e) {
    expr(e.expr());
    subqueryRange(e);
  }

  private void subqueryRange(SubqueryExpr e) {
    out.append('[');
    rangeOrExpr(e.range(), e.rangeExpr());
    out.append(':');
    if (!e.step().isZero()) {
      out.append(GoDuration.format(e.step()));
    } else if (e.stepExpr() != null) {
      duration(e.stepExpr());
    }
    out.append(']');
    at(e.timestamp(), e.atAnchor());
    offset(e.originalOffset(), e.originalOffsetExpr());
  }

  private void rangeOrExpr(Duration range, DurationExpr rangeExpr) {
    if (rangeExpr != null) {
      duration(rangeExpr);
    } else {
      out.append(GoDuration.format(range));
    }
  }

  private void number(NumberLiteral e) {
    double v = e.value();
    if (!e.duration()) {
      out.append(GoNumbers.formatShortest(v));
    } else if (v < 0) {
      out.append('-').append(GoDuration.format(Duration.ofNanos(GoNumbers.toInt64(-v * 1e9))));
    } else {
      out.append(GoDuration.format(Duration.ofNanos(GoNumbers.toInt64(v * 1e9))));
    }
  }

  /** Name and sorted matchers, leaving out the matcher the name stands for. */
  private void selector(VectorSelector e) {
    List<String> matchers = new ArrayList<>(e.matchers().size());
    for (Matcher m : e.matchers()) {
      boolean isName =
          m.name().equals("__name__")
              && m.type() == Matcher.Type.EQUAL
              && !m.value().isEmpty()
              && m.value().equals(e.name());
      if (!isName) {
        matchers.add(matcher(m));
      }
    }
    out.append(e.name());
    if (!matchers.isEmpty()) {
      // Go sorts by bytes, which for UTF-8 is code point order.
      matchers.sort((a, b) -> Arrays.compareUnsigned(Utf8.encode(a), Utf8.encode(b)));
      out.append('{').append(String.join(",", matchers)).append('}');
    }
  }

  private static String matcher(Matcher m) {
    String name = LabelNameSyntax.isLegacy(m.name()) ? m.name() : GoText.quote(m.name());
    return name + m.type().symbol() + GoText.quote(m.value());
  }

  private void at(Long timestamp, AtAnchor anchor) {
    if (timestamp != null) {
      out.append(" @ ").append(GoNumbers.formatFixed(timestamp / 1000.0, 3));
    } else if (anchor == AtAnchor.START) {
      out.append(" @ start()");
    } else if (anchor == AtAnchor.END) {
      out.append(" @ end()");
    }
  }

  private void offset(Duration offset, DurationExpr offsetExpr) {
    if (offsetExpr != null) {
      out.append(" offset ");
      duration(offsetExpr);
    } else if (offset.toNanos() == Long.MIN_VALUE) {
      // The offset a NaN number gives has no positive counterpart to print after a sign.
      out.append(" offset ").append(GoDuration.format(offset));
    } else if (offset.isNegative()) {
      out.append(" offset -").append(GoDuration.format(offset.negated()));
    } else if (!offset.isZero()) {
      out.append(" offset ").append(GoDuration.format(offset));
    }
  }

  private void duration(DurationTerm term) {
    switch (term) {
      case NumberLiteral n -> number(n);
      case DurationExpr d -> durationExpr(d);
    }
  }

  private void durationExpr(DurationExpr d) {
    if (d.wrapped()) {
      out.append('(');
    }
    switch (d.op()) {
      case STEP, RANGE -> out.append(d.op().symbol()).append("()");
      case MIN_OF, MAX_OF -> {
        out.append(d.op().symbol()).append('(');
        duration(d.lhs());
        out.append(", ");
        duration(d.rhs());
        out.append(')');
      }
      default -> {
        if (d.lhs() == null) {
          // A sign: minus is written, plus is not.
          if (d.op() == DurationOp.SUB) {
            out.append('-');
          }
          duration(d.rhs());
        } else {
          duration(d.lhs());
          out.append(' ').append(d.op().symbol()).append(' ');
          duration(d.rhs());
        }
      }
    }
    if (d.wrapped()) {
      out.append(')');
    }
  }

  private void labels(List<String> names) {
    for (int i = 0; i < names.size(); i++) {
      if (i > 0) {
        out.append(", ");
      }
      String name = names.get(i);
      out.append(LabelNameSyntax.isLegacy(name) ? name : GoText.quote(name));
    }
  }
}
