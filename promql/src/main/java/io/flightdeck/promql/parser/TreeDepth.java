package io.flightdeck.promql.parser;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Measures how deeply a tree nests, without recursion. The parser's own recursion is bounded as it
 * goes, but chains of left-associative operators ({@code a + a + ... + a}) grow a tree deeper than
 * the parser recursed; checking the finished tree keeps every later recursive walk (type checking,
 * printing, evaluation) within bounds.
 */
final class TreeDepth {
  private TreeDepth() {}

  private record Entry(Object node, int depth) {}

  static int of(Expr root) {
    int max = 0;
    Deque<Entry> pending = new ArrayDeque<>();
    pending.push(new Entry(root, 1));
    while (!pending.isEmpty()) {
      Entry entry = pending.pop();
      max = Math.max(max, entry.depth());
      for (Object child : children(entry.node())) {
        pending.push(new Entry(child, entry.depth() + 1));
      }
    }
    return max;
  }

  private static List<Object> children(Object node) {
    List<Object> children = new ArrayList<>(2);
    switch (node) {
      case AggregateExpr e -> {
        children.add(e.expr());
        addIfPresent(children, e.param());
      }
      case BinaryExpr e -> {
        children.add(e.lhs());
        children.add(e.rhs());
      }
      case Call e -> children.addAll(e.args());
      case ParenExpr e -> children.add(e.expr());
      case UnaryExpr e -> children.add(e.expr());
      case MatrixSelector e -> {
        children.add(e.selector());
        addIfPresent(children, e.rangeExpr());
      }
      case SubqueryExpr e -> {
        children.add(e.expr());
        addIfPresent(children, e.rangeExpr());
        addIfPresent(children, e.stepExpr());
        addIfPresent(children, e.originalOffsetExpr());
      }
      case VectorSelector e -> addIfPresent(children, e.originalOffsetExpr());
      case DurationExpr e -> {
        addIfPresent(children, e.lhs());
        addIfPresent(children, e.rhs());
      }
      default -> {} // literals
    }
    return children;
  }

  private static void addIfPresent(List<Object> children, Object child) {
    if (child != null) {
      children.add(child);
    }
  }
}
