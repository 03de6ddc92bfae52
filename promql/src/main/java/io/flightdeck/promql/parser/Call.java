package io.flightdeck.promql.parser;

import java.util.List;

/** A function call, its arguments already checked against the function's signature. */
public record Call(FunctionSignature function, List<Expr> args, PositionRange position)
    implements Expr {

  public Call {
    args = List.copyOf(args);
  }

  @Override
  public ValueType type() {
    return function.returnType();
  }

  @Override
  public String toString() {
    return Printer.print(this);
  }
}
