package io.flightdeck.dashboards;

import java.util.Set;

/** The panel kinds the model knows, named as Grafana's modern panel types. */
public final class PanelKinds {
  public static final String TIMESERIES = "timeseries";
  public static final String STAT = "stat";
  public static final String GAUGE = "gauge";
  public static final String BAR_GAUGE = "bargauge";
  public static final String TABLE = "table";
  public static final String HEATMAP = "heatmap";
  public static final String TEXT = "text";
  public static final String STATE_TIMELINE = "state-timeline";

  /** A panel whose type we do not draw; kept so that it is shown as such and exported back. */
  public static final String UNSUPPORTED = "unsupported";

  static final Set<String> DRAWN =
      Set.of(TIMESERIES, STAT, GAUGE, BAR_GAUGE, TABLE, HEATMAP, TEXT, STATE_TIMELINE);

  private PanelKinds() {}
}
