package io.flightdeck.promql.parser;

/** What an expression evaluates to. */
public enum ValueType {
  SCALAR("scalar", "scalar"),
  VECTOR("vector", "instant vector"),
  MATRIX("matrix", "range vector"),
  STRING("string", "string");

  private final String internalName;
  private final String documentedName;

  ValueType(String internalName, String documentedName) {
    this.internalName = internalName;
    this.documentedName = documentedName;
  }

  /** The short name Prometheus uses internally ("vector", "matrix"), seen in a few messages. */
  public String internalName() {
    return internalName;
  }

  /** The name the documentation and most error messages use ("instant vector", "range vector"). */
  public String documentedName() {
    return documentedName;
  }
}
