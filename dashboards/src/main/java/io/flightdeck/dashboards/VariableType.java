package io.flightdeck.dashboards;

import java.util.Locale;

/** A template variable's type, named as in Grafana's {@code templating.list[].type}. */
public enum VariableType {
  QUERY,
  CUSTOM,
  CONSTANT,
  INTERVAL,
  TEXTBOX,
  DATASOURCE;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The type of that wire name, or null when it is none of ours (adhoc, groupby...). */
  static VariableType fromWire(String name) {
    for (VariableType type : values()) {
      if (type.wireName().equals(name)) {
        return type;
      }
    }
    return null;
  }
}
