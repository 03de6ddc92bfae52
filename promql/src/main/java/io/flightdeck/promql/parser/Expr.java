package io.flightdeck.promql.parser;

/**
 * A PromQL expression as parsed. Nodes are immutable records; {@code toString()} gives canonical
 * PromQL as Prometheus's {@code String()} prints it, and parsing that text gives an equal tree
 * (positions aside).
 */
public sealed interface Expr
    permits AggregateExpr,
        BinaryExpr,
        Call,
        MatrixSelector,
        NumberLiteral,
        ParenExpr,
        StringLiteral,
        SubqueryExpr,
        UnaryExpr,
        VectorSelector {

  /** The type the expression evaluates to; the parser has already checked that it is valid. */
  ValueType type();

  /** Where the expression sits in the query (byte offsets). */
  PositionRange position();
}
