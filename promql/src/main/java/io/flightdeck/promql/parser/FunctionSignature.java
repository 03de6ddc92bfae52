package io.flightdeck.promql.parser;

import java.util.List;

/**
 * A PromQL function's signature. {@code variadic} counts how often the last argument type may be
 * repeated beyond its first use: 0 for fixed arity, -1 for any number of times. A function with
 * {@code variadic > 0} and one argument type ({@code hour(vector?)}) takes that argument as
 * optional.
 */
public record FunctionSignature(
    String name,
    List<ValueType> argTypes,
    int variadic,
    ValueType returnType,
    boolean experimental) {

  public FunctionSignature {
    argTypes = List.copyOf(argTypes);
  }
}
