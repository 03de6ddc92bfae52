package io.flightdeck.dashboards;

import java.util.List;

/**
 * One template variable with Grafana's fields. {@code query} is the definition in its string form
 * whatever the type: a Prometheus variable query ({@code label_values(up, job)}), the custom list
 * ({@code a,b,c} or {@code text : value} pairs), the constant or textbox value, the interval list,
 * or the data source type. {@code current} is the selection saved with the dashboard ({@code
 * $__all} for All). {@code auto}, {@code autoCount} and {@code autoMin} are the interval type's.
 */
public record Variable(
    String name,
    VariableType type,
    String label,
    String description,
    int hide,
    String query,
    String regex,
    int sort,
    boolean multi,
    boolean includeAll,
    String allValue,
    int refresh,
    List<String> current,
    boolean auto,
    int autoCount,
    String autoMin) {

  /** The value Grafana stores for the "All" choice. */
  public static final String ALL = "$__all";

  public Variable {
    name = Text.orEmpty(name);
    label = Text.orEmpty(label);
    description = Text.orEmpty(description);
    query = Text.orEmpty(query);
    regex = Text.orEmpty(regex);
    allValue = Text.orEmpty(allValue);
    current = current == null ? List.of() : List.copyOf(current);
    autoMin = Text.orEmpty(autoMin);
  }
}
