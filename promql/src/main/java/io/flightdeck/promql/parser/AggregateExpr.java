package io.flightdeck.promql.parser;

import java.util.List;

/**
 * An aggregation such as {@code sum by (job) (x)} or {@code topk(5, x)}. {@code param} is null for
 * operators without a parameter; {@code grouping} lists the {@code by} labels, or with {@code
 * without} the labels to drop.
 */
public record AggregateExpr(
    AggregateOp op,
    Expr expr,
    Expr param,
    List<String> grouping,
    boolean without,
    PositionRange position)
    implements Expr {

  public AggregateExpr {
    grouping = List.copyOf(grouping);
  }

  @Override
  public ValueType type() {
    return ValueType.VECTOR;
  }

  @Override
  public String toString() {
    return Printer.print(this);
  }
}
