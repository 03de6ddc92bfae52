package io.flightdeck.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.flightdeck.dashboards.Dashboard;
import io.flightdeck.dashboards.DashboardStore;
import io.flightdeck.dashboards.GrafanaIntervals;
import io.flightdeck.dashboards.GridItem;
import io.flightdeck.dashboards.Interpolator;
import io.flightdeck.dashboards.LayoutSection;
import io.flightdeck.dashboards.Panel;
import io.flightdeck.dashboards.PanelQuery;
import io.flightdeck.dashboards.QueryTiming;
import io.flightdeck.dashboards.Variable;
import io.flightdeck.dashboards.VariableResolver;
import io.flightdeck.dashboards.VariableValue;
import io.flightdeck.model.Clock;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.storage.Queryable;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/dashboards/{uid}/queries}: a dashboard's variables resolved against our data
 * and every panel's queries interpolated, with Grafana's interval, step and aligned range, so that
 * a renderer only has to run the queries. Parameters: {@code from}, {@code to} (default: the
 * dashboard's relative range ending now), {@code width} (pixels of the dashboard, default 1200:
 * each panel's max data points is its share of it) and {@code var-NAME} as Grafana's URLs. Repeats
 * are expanded here: a repeated row or panel is answered once per selected value (every option for
 * All), with {@code rowRepeat}/{@code panelRepeat} naming the variable and value, and its title and
 * queries interpolated with that value alone; {@code section} is the panel's index in the layout.
 */
public final class DashboardsQueriesApi {
  private static final int DEFAULT_WIDTH = 1200;

  private final DashboardStore store;
  private final VariableResolver resolver;
  private final Clock clock;
  private final String scrapeInterval;

  /**
   * @param scrapeInterval the configured global scrape interval ({@code 15s}): the floor of {@code
   *     $__interval} and the base of {@code $__rate_interval}
   */
  public DashboardsQueriesApi(
      DashboardStore store, Engine engine, Queryable storage, Clock clock, String scrapeInterval) {
    this.store = store;
    this.resolver = new VariableResolver(new DashboardsVariableSource(engine, storage));
    this.clock = clock;
    this.scrapeInterval = scrapeInterval;
  }

  public List<ApiRoute> routes() {
    return List.of(
        new ApiRoute(
            "GET",
            "/api/v1/dashboards/{uid}/queries",
            exchange ->
                PrometheusApi.handle(
                    exchange, params -> queries(params, exchange.pathParam("uid")))));
  }

  private byte[] queries(Params params, String uid) {
    Dashboard dashboard =
        store
            .get(uid)
            .orElseThrow(
                () -> new ApiException(ErrorType.NOT_FOUND, "dashboard \"" + uid + "\" not found"))
            .dashboard();
    long to = params.time("to", clock.millis());
    long from = params.time("from", to - defaultRangeMs(dashboard));
    if (to < from) {
      throw ApiException.invalidParam("to", "the range ends before it starts");
    }
    int width = width(params);
    Map<String, List<String>> selections = new HashMap<>();
    for (Variable variable : dashboard.variables()) {
      List<String> chosen = params.all("var-" + variable.name());
      if (!chosen.isEmpty()) {
        selections.put(variable.name(), chosen);
      }
    }
    Map<String, VariableValue> builtIns =
        QueryTiming.compute(from, to, Math.max(1, width), "", "", 1, scrapeInterval).builtIns();
    Map<String, VariableResolver.Resolved> resolved;
    try {
      resolved = resolver.resolve(dashboard.variables(), selections, from, to, builtIns);
    } catch (IllegalArgumentException e) {
      throw ApiException.badData(e.getMessage());
    }
    Map<String, VariableValue> values = new LinkedHashMap<>(VariableResolver.values(resolved));
    values.put("__dashboard", VariableValue.single(dashboard.title()));
    return ApiJson.success(out -> write(out, dashboard, resolved, values, from, to, width));
  }

  private static long defaultRangeMs(Dashboard dashboard) {
    String from = dashboard.time().from();
    if (from.startsWith("now-") && dashboard.time().to().equals("now")) {
      try {
        return (long) GrafanaIntervals.intervalToMs(from.substring(4));
      } catch (IllegalArgumentException e) {
        // a range such as now-1d/d: fall back to Grafana's default
      }
    }
    return 6 * 3_600_000L;
  }

  private static int width(Params params) {
    String text = params.get("width");
    if (text.isEmpty()) {
      return DEFAULT_WIDTH;
    }
    try {
      int width = Integer.parseInt(text);
      if (width > 0 && width <= 100_000) {
        return width;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw ApiException.invalidParam(
        "width", "expected pixels between 1 and 100000, got \"" + text + "\"");
  }

  private void write(
      JsonGenerator out,
      Dashboard dashboard,
      Map<String, VariableResolver.Resolved> resolved,
      Map<String, VariableValue> values,
      long from,
      long to,
      int width)
      throws IOException {
    out.writeStartObject();
    out.writeNumberField("from", from);
    out.writeNumberField("to", to);
    out.writeArrayFieldStart("variables");
    for (Variable variable : dashboard.variables()) {
      VariableResolver.Resolved r = resolved.get(variable.name());
      out.writeStartObject();
      out.writeStringField("name", variable.name());
      out.writeStringField("type", variable.type().wireName());
      strings(out, "options", r.options());
      strings(out, "selected", r.selected());
      out.writeEndObject();
    }
    out.writeEndArray();
    out.writeArrayFieldStart("panels");
    List<LayoutSection> layout = dashboard.layout();
    for (int section = 0; section < layout.size(); section++) {
      LayoutSection row = layout.get(section);
      for (String rowValue : repeatValues(row.repeat(), resolved)) {
        Map<String, VariableValue> rowValues = withSingle(values, row.repeat(), rowValue);
        for (GridItem item : row.items()) {
          Panel panel = dashboard.panels().get(item.panel());
          for (String panelValue : repeatValues(panel.repeat(), resolved)) {
            Map<String, VariableValue> panelValues =
                withSingle(rowValues, panel.repeat(), panelValue);
            int maxDataPoints =
                panel.maxDataPoints() != null
                    ? panel.maxDataPoints()
                    : Math.max(1, Math.round((float) width * item.w() / GridItem.COLUMNS));
            out.writeStartObject();
            out.writeStringField("id", item.panel());
            out.writeNumberField("section", section);
            writeRepeat(out, "rowRepeat", row.repeat(), rowValue);
            writeRepeat(out, "panelRepeat", panel.repeat(), panelValue);
            out.writeStringField("kind", panel.kind());
            out.writeStringField(
                "title", Interpolator.interpolate(panel.title(), panelValues, "glob"));
            out.writeArrayFieldStart("queries");
            for (PanelQuery query : panel.queries()) {
              query(out, panel, query, panelValues, from, to, maxDataPoints);
            }
            out.writeEndArray();
            out.writeEndObject();
          }
        }
      }
    }
    out.writeEndArray();
    out.writeEndObject();
  }

  /**
   * The values a row or panel repeats over: the variable's selection (every option for All); one
   * empty value, meaning "not repeated", when it does not repeat or its variable is unknown.
   */
  private static List<String> repeatValues(
      String variable, Map<String, VariableResolver.Resolved> resolved) {
    VariableResolver.Resolved r = variable.isEmpty() ? null : resolved.get(variable);
    if (r == null) {
      return List.of("");
    }
    List<String> values = r.value().values();
    return values.isEmpty() ? List.of("") : values;
  }

  /** The variables with {@code variable} narrowed to one value, as Grafana does for a repeat. */
  private static Map<String, VariableValue> withSingle(
      Map<String, VariableValue> values, String variable, String value) {
    if (variable.isEmpty() || !values.containsKey(variable)) {
      return values;
    }
    Map<String, VariableValue> copy = new LinkedHashMap<>(values);
    copy.put(variable, VariableValue.single(value));
    return copy;
  }

  private static void writeRepeat(JsonGenerator out, String field, String variable, String value)
      throws IOException {
    if (variable.isEmpty()) {
      return;
    }
    out.writeObjectFieldStart(field);
    out.writeStringField("variable", variable);
    out.writeStringField("value", value);
    out.writeEndObject();
  }

  private void query(
      JsonGenerator out,
      Panel panel,
      PanelQuery query,
      Map<String, VariableValue> variables,
      long from,
      long to,
      int maxDataPoints)
      throws IOException {
    QueryTiming timing;
    try {
      timing =
          QueryTiming.compute(
              from,
              to,
              maxDataPoints,
              Interpolator.interpolate(panel.interval(), variables, "glob"),
              Interpolator.interpolate(query.minStep(), variables, "glob"),
              query.intervalFactor(),
              scrapeInterval);
    } catch (IllegalArgumentException e) {
      throw ApiException.badData(
          "panel \"" + panel.title() + "\" query " + query.refId() + ": " + e.getMessage());
    }
    Map<String, VariableValue> values = new LinkedHashMap<>(variables);
    values.putAll(timing.builtIns());
    out.writeStartObject();
    out.writeStringField("refId", query.refId());
    out.writeStringField("expr", Interpolator.promql(query.expr(), values));
    out.writeStringField("legendFormat", query.legendFormat());
    out.writeBooleanField("instant", query.instant());
    out.writeBooleanField("range", query.range());
    out.writeBooleanField("hide", query.hide());
    out.writeStringField("format", query.format());
    out.writeStringField("interval", timing.interval());
    out.writeNumberField("step", timing.stepSeconds());
    out.writeNumberField("start", timing.startSeconds());
    out.writeNumberField("end", timing.endSeconds());
    out.writeEndObject();
  }

  private static void strings(JsonGenerator out, String field, List<String> values)
      throws IOException {
    out.writeArrayFieldStart(field);
    for (String value : values) {
      out.writeString(value);
    }
    out.writeEndArray();
  }
}
