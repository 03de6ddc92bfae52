package io.flightdeck.promql.parser;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The functions PromQL knows, with the signatures Prometheus 3.14 checks calls against (see {@code
 * docs/promql-functions.md} in the shared folder).
 */
public final class Functions {
  private static final ValueType V = ValueType.VECTOR;
  private static final ValueType M = ValueType.MATRIX;
  private static final ValueType S = ValueType.SCALAR;
  private static final ValueType STR = ValueType.STRING;

  private static final Map<String, FunctionSignature> BY_NAME = new HashMap<>();

  static {
    add(false, "abs", List.of(V), 0, V);
    add(false, "absent", List.of(V), 0, V);
    add(false, "absent_over_time", List.of(M), 0, V);
    add(false, "acos", List.of(V), 0, V);
    add(false, "acosh", List.of(V), 0, V);
    add(false, "asin", List.of(V), 0, V);
    add(false, "asinh", List.of(V), 0, V);
    add(false, "atan", List.of(V), 0, V);
    add(false, "atanh", List.of(V), 0, V);
    add(false, "avg_over_time", List.of(M), 0, V);
    add(false, "ceil", List.of(V), 0, V);
    add(false, "changes", List.of(M), 0, V);
    add(false, "clamp", List.of(V, S, S), 0, V);
    add(false, "clamp_max", List.of(V, S), 0, V);
    add(false, "clamp_min", List.of(V, S), 0, V);
    add(false, "cos", List.of(V), 0, V);
    add(false, "cosh", List.of(V), 0, V);
    add(false, "count_over_time", List.of(M), 0, V);
    add(false, "day_of_month", List.of(V), 1, V);
    add(false, "day_of_week", List.of(V), 1, V);
    add(false, "day_of_year", List.of(V), 1, V);
    add(false, "days_in_month", List.of(V), 1, V);
    add(false, "deg", List.of(V), 0, V);
    add(false, "delta", List.of(M), 0, V);
    add(false, "deriv", List.of(M), 0, V);
    add(true, "double_exponential_smoothing", List.of(M, S, S), 0, V);
    add(true, "end", List.of(), 0, S);
    add(false, "exp", List.of(V), 0, V);
    add(false, "first_over_time", List.of(M), 0, V);
    add(false, "floor", List.of(V), 0, V);
    add(false, "histogram_avg", List.of(V), 0, V);
    add(false, "histogram_count", List.of(V), 0, V);
    add(false, "histogram_fraction", List.of(S, S, V), 0, V);
    add(false, "histogram_quantile", List.of(S, V), 0, V);
    add(true, "histogram_quantiles", List.of(V, STR, S, S), 9, V);
    add(false, "histogram_stddev", List.of(V), 0, V);
    add(false, "histogram_stdvar", List.of(V), 0, V);
    add(false, "histogram_sum", List.of(V), 0, V);
    add(false, "hour", List.of(V), 1, V);
    add(false, "idelta", List.of(M), 0, V);
    add(false, "increase", List.of(M), 0, V);
    add(true, "info", List.of(V, V), 1, V);
    add(false, "irate", List.of(M), 0, V);
    add(false, "label_join", List.of(V, STR, STR, STR), -1, V);
    add(false, "label_replace", List.of(V, STR, STR, STR, STR), 0, V);
    add(false, "last_over_time", List.of(M), 0, V);
    add(false, "ln", List.of(V), 0, V);
    add(false, "log10", List.of(V), 0, V);
    add(false, "log2", List.of(V), 0, V);
    add(true, "mad_over_time", List.of(M), 0, V);
    add(true, "max_of", List.of(S, S), 0, S);
    add(false, "max_over_time", List.of(M), 0, V);
    add(true, "min_of", List.of(S, S), 0, S);
    add(false, "min_over_time", List.of(M), 0, V);
    add(false, "minute", List.of(V), 1, V);
    add(false, "month", List.of(V), 1, V);
    add(false, "pi", List.of(), 0, S);
    add(false, "predict_linear", List.of(M, S), 0, V);
    add(false, "present_over_time", List.of(M), 0, V);
    add(false, "quantile_over_time", List.of(S, M), 0, V);
    add(false, "rad", List.of(V), 0, V);
    add(true, "range", List.of(), 0, S);
    add(false, "rate", List.of(M), 0, V);
    add(false, "resets", List.of(M), 0, V);
    add(false, "round", List.of(V, S), 1, V);
    add(false, "scalar", List.of(V), 0, S);
    add(false, "sgn", List.of(V), 0, V);
    add(false, "sin", List.of(V), 0, V);
    add(false, "sinh", List.of(V), 0, V);
    add(false, "sort", List.of(V), 0, V);
    add(true, "sort_by_label", List.of(V, STR), -1, V);
    add(true, "sort_by_label_desc", List.of(V, STR), -1, V);
    add(false, "sort_desc", List.of(V), 0, V);
    add(false, "sqrt", List.of(V), 0, V);
    add(true, "start", List.of(), 0, S);
    add(true, "start_timestamp", List.of(V), 0, V);
    add(false, "stddev_over_time", List.of(M), 0, V);
    add(false, "stdvar_over_time", List.of(M), 0, V);
    add(true, "step", List.of(), 0, S);
    add(false, "sum_over_time", List.of(M), 0, V);
    add(false, "tan", List.of(V), 0, V);
    add(false, "tanh", List.of(V), 0, V);
    add(false, "time", List.of(), 0, S);
    add(false, "timestamp", List.of(V), 0, V);
    add(true, "ts_of_first_over_time", List.of(M), 0, V);
    add(true, "ts_of_last_over_time", List.of(M), 0, V);
    add(true, "ts_of_max_over_time", List.of(M), 0, V);
    add(true, "ts_of_min_over_time", List.of(M), 0, V);
    add(false, "vector", List.of(S), 0, V);
    add(false, "year", List.of(V), 1, V);
  }

  private Functions() {}

  private static void add(
      boolean experimental, String name, List<ValueType> args, int variadic, ValueType result) {
    BY_NAME.put(name, new FunctionSignature(name, args, variadic, result, experimental));
  }

  /** The function of that exact (case-sensitive) name. */
  public static Optional<FunctionSignature> find(String name) {
    return Optional.ofNullable(BY_NAME.get(name));
  }
}
