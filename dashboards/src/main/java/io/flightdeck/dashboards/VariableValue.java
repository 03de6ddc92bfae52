package io.flightdeck.dashboards;

import java.util.List;

/**
 * A variable's value at interpolation time: the selected values (every option's value when "All" is
 * chosen), whether the variable is multi-value or has "All" (which changes Grafana's PromQL
 * formatting), and the custom "All" value when All is chosen and the variable defines one (written
 * unformatted, as Grafana does).
 */
public record VariableValue(List<String> values, boolean multiOrAll, String customAllValue) {
  public VariableValue {
    values = List.copyOf(values);
  }

  /** A plain value: a constant, a textbox, a single-value variable or a built-in. */
  public static VariableValue single(String value) {
    return new VariableValue(List.of(value), false, null);
  }

  /** The selection of a multi-value or "All" variable. */
  public static VariableValue multi(List<String> values) {
    return new VariableValue(values, true, null);
  }

  /** "All" of a variable that defines its own all value ({@code .*}). */
  public static VariableValue customAll(String allValue, List<String> values) {
    return new VariableValue(values, true, allValue);
  }
}
