package io.flightdeck.api;

import io.flightdeck.dashboards.VariableDataSource;
import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.promql.PromQL;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.engine.QueryValue;
import io.flightdeck.promql.engine.Sample;
import io.flightdeck.promql.engine.ScalarValue;
import io.flightdeck.promql.engine.VectorValue;
import io.flightdeck.promql.parser.ParseException;
import io.flightdeck.promql.parser.VectorSelector;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.Queryable;
import io.flightdeck.storage.SeriesSet;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Answers dashboard variable queries from our own storage and engine, as Grafana's Prometheus
 * source asks the label, series and query endpoints.
 */
final class DashboardsVariableSource implements VariableDataSource {
  private final Engine engine;
  private final Queryable storage;

  DashboardsVariableSource(Engine engine, Queryable storage) {
    this.engine = engine;
    this.storage = storage;
  }

  @Override
  public List<String> labelNames(String match, long fromMs, long toMs) {
    try (Querier querier = storage.querier(fromMs, toMs)) {
      return new ArrayList<>(new TreeSet<>(querier.labelNames(matchers(match))));
    }
  }

  @Override
  public List<String> labelValues(String label, String match, long fromMs, long toMs) {
    try (Querier querier = storage.querier(fromMs, toMs)) {
      return new ArrayList<>(new TreeSet<>(querier.labelValues(label, matchers(match))));
    }
  }

  @Override
  public List<String> series(String match, long fromMs, long toMs) {
    Set<String> out = new LinkedHashSet<>();
    try (Querier querier = storage.querier(fromMs, toMs)) {
      SeriesSet series = querier.select(true, matchers(match));
      while (series.next()) {
        out.add(series.at().labels().toString());
      }
    }
    return new ArrayList<>(out);
  }

  @Override
  public List<String> queryResult(String expr, long atMs) {
    QueryValue value;
    try {
      value = engine.instantQuery(storage, expr, atMs).value();
    } catch (ParseException e) {
      throw ApiException.badData("variable query_result(" + expr + "): " + e.getMessage());
    }
    List<String> out = new ArrayList<>();
    if (value instanceof VectorValue vector) {
      for (Sample sample : vector.samples()) {
        out.add(text(sample.labels(), sample.value(), sample.timestamp()));
      }
    } else if (value instanceof ScalarValue scalar) {
      out.add(text(Labels.of(), scalar.value(), scalar.timestamp()));
    }
    return out;
  }

  /** Grafana's line for one sample: {@code metric{a="b"} value timestamp}. */
  private static String text(Labels labels, double value, long timestampMs) {
    return labels + " " + GoFloats.sampleValue(value) + " " + timestampMs;
  }

  private static Matcher[] matchers(String selector) {
    if (selector.isBlank()) {
      return new Matcher[0];
    }
    try {
      if (PromQL.parse(selector) instanceof VectorSelector vector) {
        return vector.matchers().toArray(new Matcher[0]);
      }
    } catch (ParseException e) {
      throw ApiException.badData("variable selector " + selector + ": " + e.getMessage());
    }
    throw ApiException.badData("variable selector " + selector + " is not a series selector");
  }
}
