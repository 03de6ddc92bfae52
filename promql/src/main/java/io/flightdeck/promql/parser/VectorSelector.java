package io.flightdeck.promql.parser;

import io.flightdeck.model.Matcher;
import java.time.Duration;
import java.util.List;

/**
 * An instant vector selector. {@code name} is the metric name written before the braces, or the
 * empty string; when present, its {@code __name__} equality matcher is the last of {@code
 * matchers}. The offset is {@code originalOffset}, or {@code originalOffsetExpr} when written as a
 * duration expression; the {@code @} time is {@code timestamp} (milliseconds) or {@code atAnchor};
 * absent ones are null. {@code anchored} and {@code smoothed} are the experimental modifiers that
 * read samples around the edges of a range (at most one is set); on a range selector they live
 * here, like its offset.
 */
public record VectorSelector(
    String name,
    List<Matcher> matchers,
    Duration originalOffset,
    DurationExpr originalOffsetExpr,
    Long timestamp,
    AtAnchor atAnchor,
    boolean anchored,
    boolean smoothed,
    PositionRange position)
    implements Expr {

  public VectorSelector {
    matchers = List.copyOf(matchers);
  }

  static VectorSelector of(String name, List<Matcher> matchers, PositionRange position) {
    return new VectorSelector(
        name, matchers, Duration.ZERO, null, null, null, false, false, position);
  }

  @Override
  public ValueType type() {
    return ValueType.VECTOR;
  }

  boolean hasOffset() {
    return !originalOffset.isZero() || originalOffsetExpr != null;
  }

  boolean hasAt() {
    return timestamp != null || atAnchor != null;
  }

  VectorSelector withOffset(Duration offset, DurationExpr offsetExpr, int end) {
    return new VectorSelector(
        name, matchers, offset, offsetExpr, timestamp, atAnchor, anchored, smoothed, endingAt(end));
  }

  VectorSelector withAt(Long newTimestamp, AtAnchor newAnchor, int end) {
    return new VectorSelector(
        name,
        matchers,
        originalOffset,
        originalOffsetExpr,
        newTimestamp,
        newAnchor,
        anchored,
        smoothed,
        endingAt(end));
  }

  VectorSelector withExtended(boolean newAnchored, boolean newSmoothed) {
    return new VectorSelector(
        name,
        matchers,
        originalOffset,
        originalOffsetExpr,
        timestamp,
        atAnchor,
        newAnchored,
        newSmoothed,
        position);
  }

  private PositionRange endingAt(int end) {
    return new PositionRange(position.start(), end);
  }

  @Override
  public String toString() {
    return Printer.print(this);
  }
}
