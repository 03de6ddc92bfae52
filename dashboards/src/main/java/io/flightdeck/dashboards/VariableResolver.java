package io.flightdeck.dashboards;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Resolves a dashboard's variables in dependency order, as Grafana does on load: each query
 * variable's query is interpolated with the variables before it, run against the data, filtered by
 * its regex and sorted; then the selection (from the URL's {@code var-NAME}, else the saved one,
 * else All or the first option) becomes the value that panels' queries are interpolated with.
 */
public final class VariableResolver {
  /** One variable's options and chosen value. */
  public record Resolved(
      Variable variable, List<String> options, List<String> selected, VariableValue value) {}

  private final VariableDataSource data;

  public VariableResolver(VariableDataSource data) {
    this.data = data;
  }

  /**
   * @param selections values chosen in the URL ({@code var-NAME}), by variable name; {@code $__all}
   *     or {@code All} means All
   * @param builtIns {@code $__interval} and friends, usable in variable queries
   * @return every variable's resolution, by name, in dependency order
   */
  public Map<String, Resolved> resolve(
      List<Variable> variables,
      Map<String, List<String>> selections,
      long fromMs,
      long toMs,
      Map<String, VariableValue> builtIns) {
    Map<String, VariableValue> values = new LinkedHashMap<>(builtIns);
    Map<String, Resolved> resolved = new LinkedHashMap<>();
    for (Variable variable : VariableGraph.resolutionOrder(variables)) {
      List<String> options = options(variable, values, selections, fromMs, toMs);
      List<String> selected = select(variable, options, selections.get(variable.name()));
      VariableValue value = value(variable, options, selected);
      values.put(variable.name(), value);
      resolved.put(variable.name(), new Resolved(variable, options, selected, value));
    }
    return resolved;
  }

  /** The values of every resolved variable, ready for {@link Interpolator}. */
  public static Map<String, VariableValue> values(Map<String, Resolved> resolved) {
    Map<String, VariableValue> out = new LinkedHashMap<>();
    resolved.forEach((name, r) -> out.put(name, r.value()));
    return out;
  }

  private List<String> options(
      Variable variable,
      Map<String, VariableValue> values,
      Map<String, List<String>> selections,
      long fromMs,
      long toMs) {
    return switch (variable.type()) {
      case QUERY -> {
        String query = Interpolator.promql(variable.query(), values);
        List<String> raw = run(VariableQuery.parse(query), variable.name(), fromMs, toMs);
        List<String> filtered = VariableOptions.applyRegex(raw, variable.regex(), variable.name());
        yield VariableOptions.sort(filtered, variable.sort());
      }
      case CUSTOM -> VariableOptions.custom(variable.query());
      case CONSTANT -> List.of(variable.query());
      case TEXTBOX -> {
        List<String> chosen = selections.get(variable.name());
        yield List.of(chosen != null && !chosen.isEmpty() ? chosen.get(0) : variable.query());
      }
      case DATASOURCE -> List.of("prometheus");
      case INTERVAL -> {
        List<String> list = new ArrayList<>(VariableOptions.custom(variable.query()));
        if (variable.auto()) {
          list.add(0, autoInterval(variable, fromMs, toMs));
        }
        yield list;
      }
    };
  }

  /**
   * The {@code auto} option: the range over {@code auto_count}, rounded, at least {@code auto_min}.
   */
  private static String autoInterval(Variable variable, long fromMs, long toMs) {
    double ms =
        Math.max(
            GrafanaIntervals.roundInterval(
                (double) (toMs - fromMs) / Math.max(1, variable.autoCount())),
            GrafanaIntervals.intervalToMs(
                variable.autoMin().isEmpty() ? "10s" : variable.autoMin()));
    return GrafanaIntervals.secondsToHms(ms / 1000);
  }

  private List<String> run(VariableQuery query, String variable, long fromMs, long toMs) {
    return switch (query) {
      case VariableQuery.LabelNames q -> data.labelNames(q.match(), fromMs, toMs);
      case VariableQuery.LabelValues q -> data.labelValues(q.label(), q.match(), fromMs, toMs);
      case VariableQuery.Metrics q ->
          BoundedRegex.bare(q.regex(), variable)
              .kept(data.labelValues("__name__", "", fromMs, toMs));
      case VariableQuery.QueryResult q -> data.queryResult(q.expr(), toMs);
      case VariableQuery.Series q -> data.series(q.match(), fromMs, toMs);
    };
  }

  private static List<String> select(Variable variable, List<String> options, List<String> url) {
    List<String> wanted = url != null && !url.isEmpty() ? url : variable.current();
    if (variable.type() == VariableType.TEXTBOX || variable.type() == VariableType.CONSTANT) {
      return options;
    }
    if (variable.includeAll() && isAll(wanted)) {
      return List.of(Variable.ALL);
    }
    List<String> kept = wanted.stream().filter(options::contains).toList();
    if (!kept.isEmpty()) {
      return variable.multi() ? kept : List.of(kept.get(0));
    }
    if (variable.includeAll()) {
      return List.of(Variable.ALL);
    }
    return options.isEmpty() ? List.of() : List.of(options.get(0));
  }

  private static boolean isAll(List<String> values) {
    return values.contains(Variable.ALL) || values.contains("All");
  }

  private static VariableValue value(
      Variable variable, List<String> options, List<String> selected) {
    boolean all = selected.equals(List.of(Variable.ALL));
    if (all) {
      return variable.allValue().isEmpty()
          ? VariableValue.multi(options)
          : VariableValue.customAll(variable.allValue(), options);
    }
    if (variable.multi() || variable.includeAll()) {
      return VariableValue.multi(selected);
    }
    return VariableValue.single(selected.isEmpty() ? "" : selected.get(0));
  }
}
