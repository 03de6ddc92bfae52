package io.flightdeck.dashboards;

/** The formats a dashboard is read from and written to. */
public enum SourceFormat {
  /** Grafana's classic dashboard JSON, as grafana.com and "Export" give it. */
  GRAFANA,
  /** Grafana's {@code dashboard.grafana.app/v1*} resource, whose {@code spec} is classic JSON. */
  GRAFANA_V1_RESOURCE,
  /** A Perses {@code kind: Dashboard}, JSON or YAML, or its bare {@code spec}. */
  PERSES,
  /** Our own model's JSON ({@link ModelJson}). */
  FLIGHTDECK
}
