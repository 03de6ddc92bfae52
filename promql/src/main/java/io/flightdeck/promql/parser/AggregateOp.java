package io.flightdeck.promql.parser;

import java.util.Locale;

/** The aggregation operators. */
public enum AggregateOp {
  SUM,
  AVG,
  COUNT,
  MIN,
  MAX,
  GROUP,
  STDDEV,
  STDVAR,
  TOPK,
  BOTTOMK,
  COUNT_VALUES,
  QUANTILE,
  LIMITK,
  LIMIT_RATIO;

  /** The keyword as PromQL writes it ({@code count_values}). */
  public String keyword() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether the operator takes a parameter before the vector ({@code topk(5, x)}). */
  public boolean hasParameter() {
    return switch (this) {
      case TOPK, BOTTOMK, COUNT_VALUES, QUANTILE, LIMITK, LIMIT_RATIO -> true;
      default -> false;
    };
  }

  /** The type the parameter must have: a string label name for count_values, else a scalar. */
  ValueType parameterType() {
    return this == COUNT_VALUES ? ValueType.STRING : ValueType.SCALAR;
  }

  /** Prometheus gates these behind {@code --enable-feature=promql-experimental-functions}. */
  public boolean isExperimental() {
    return this == LIMITK || this == LIMIT_RATIO;
  }
}
