package io.flightdeck.promql.parser;

import java.time.Duration;

/**
 * A subquery {@code expr[range:step]}. Range and step are zero where given as duration expressions
 * instead ({@code rangeExpr}, {@code stepExpr}); a zero step without {@code stepExpr} means the
 * default evaluation interval. Offset and {@code @} are as on {@link VectorSelector}.
 */
public record SubqueryExpr(
    Expr expr,
    Duration range,
    DurationExpr rangeExpr,
    Duration step,
    DurationExpr stepExpr,
    Duration originalOffset,
    DurationExpr originalOffsetExpr,
    Long timestamp,
    AtAnchor atAnchor,
    PositionRange position)
    implements Expr {

  @Override
  public ValueType type() {
    return ValueType.MATRIX;
  }

  boolean hasOffset() {
    return !originalOffset.isZero() || originalOffsetExpr != null;
  }

  boolean hasAt() {
    return timestamp != null || atAnchor != null;
  }

  SubqueryExpr withOffset(Duration offset, DurationExpr offsetExpr, int newEnd) {
    return new SubqueryExpr(
        expr,
        range,
        rangeExpr,
        step,
        stepExpr,
        offset,
        offsetExpr,
        timestamp,
        atAnchor,
        endingAt(newEnd));
  }

  SubqueryExpr withAt(Long newTimestamp, AtAnchor newAnchor, int newEnd) {
    return new SubqueryExpr(
        expr,
        range,
        rangeExpr,
        step,
        stepExpr,
        originalOffset,
        originalOffsetExpr,
        newTimestamp,
        newAnchor,
        endingAt(newEnd));
  }

  private PositionRange endingAt(int end) {
    return new PositionRange(position.start(), end);
  }

  @Override
  public String toString() {
    return Printer.print(this);
  }
}
