package io.flightdeck.api;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.promql.parser.GoFormat;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.Queryable;
import io.flightdeck.storage.ReadCancellation;
import io.flightdeck.storage.SeriesSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/** {@code series}, {@code labels} and {@code label/<name>/values}: lookups without samples. */
final class SeriesHandlers {
  private static final String TRUNCATED = "results truncated due to limit";

  private final Queryable storage;
  private final Duration timeout;

  /**
   * @param timeout how long one lookup may take, the queries' timeout: a lookup over millions of
   *     series stops there, or when its client goes away
   */
  SeriesHandlers(Queryable storage, Duration timeout) {
    this.storage = storage;
    this.timeout = timeout;
  }

  byte[] series(Params params) {
    if (params.all("match[]").isEmpty()) {
      throw ApiException.badData("no match[] parameter provided");
    }
    int limit = params.limit();
    long start = params.time("start", Params.MIN_TIME);
    long end = params.time("end", Params.MAX_TIME);
    List<List<Matcher>> sets;
    try {
      sets = params.matcherSets();
    } catch (IllegalArgumentException e) {
      throw ApiException.invalidParam("match[]", e.getMessage());
    }
    List<String> warnings = new ArrayList<>();
    Collection<Labels> found = sets.size() > 1 ? new TreeSet<>() : new ArrayList<>();
    RequestDeadline deadline = RequestDeadline.start(params, timeout);
    Runnable check = () -> deadline.check("series lookup");
    try (Querier querier = storage.querier(start, end)) {
      ReadCancellation.during(
          check,
          () -> {
            for (List<Matcher> set : sets) {
              SeriesSet series = querier.select(true, set.toArray(new Matcher[0]));
              int turn = 0;
              while (series.next()) {
                ReadCancellation.checkpoint(++turn);
                found.add(series.at().labels());
              }
              warnings.addAll(series.warnings());
            }
            return null;
          });
    }
    List<Labels> shown = new ArrayList<>(found);
    if (limit > 0 && shown.size() > limit) {
      shown = shown.subList(0, limit);
      warnings.add(TRUNCATED);
    }
    List<Labels> result = shown;
    return ApiJson.success(
        out -> {
          out.writeStartArray();
          int turn = 0;
          for (Labels labels : result) {
            if (++turn % ReadCancellation.EVERY == 0) {
              deadline.check("writing the result");
            }
            ApiJson.labels(out, labels);
          }
          out.writeEndArray();
        },
        warnings,
        List.of());
  }

  byte[] labelNames(Params params) {
    int limit = params.limit();
    long start = params.time("start", Params.MIN_TIME);
    long end = params.time("end", Params.MAX_TIME);
    List<List<Matcher>> sets = matcherSets(params);
    TreeSet<String> names = new TreeSet<>();
    RequestDeadline deadline = RequestDeadline.start(params, timeout);
    try (Querier querier = storage.querier(start, end)) {
      ReadCancellation.during(
          () -> deadline.check("label lookup"),
          () -> {
            if (sets.isEmpty()) {
              names.addAll(querier.labelNames());
            }
            for (List<Matcher> set : sets) {
              names.addAll(querier.labelNames(set.toArray(new Matcher[0])));
            }
            return null;
          });
    }
    return limited(new ArrayList<>(names), limit);
  }

  byte[] labelValues(Params params, String name) {
    if (name == null || name.isEmpty()) {
      throw ApiException.badData("invalid label name: " + GoFormat.quote(name == null ? "" : name));
    }
    int limit = params.limit();
    long start = params.time("start", Params.MIN_TIME);
    long end = params.time("end", Params.MAX_TIME);
    List<List<Matcher>> sets = matcherSets(params);
    TreeSet<String> values = new TreeSet<>();
    RequestDeadline deadline = RequestDeadline.start(params, timeout);
    try (Querier querier = storage.querier(start, end)) {
      ReadCancellation.during(
          () -> deadline.check("label lookup"),
          () -> {
            if (sets.isEmpty()) {
              values.addAll(querier.labelValues(name));
            }
            for (List<Matcher> set : sets) {
              values.addAll(querier.labelValues(name, set.toArray(new Matcher[0])));
            }
            return null;
          });
    }
    return limited(new ArrayList<>(values), limit);
  }

  private static List<List<Matcher>> matcherSets(Params params) {
    try {
      return params.matcherSets();
    } catch (IllegalArgumentException e) {
      throw ApiException.badData(e.getMessage());
    }
  }

  private static byte[] limited(List<String> values, int limit) {
    List<String> warnings = List.of();
    List<String> shown = values;
    if (limit > 0 && values.size() > limit) {
      shown = values.subList(0, limit);
      warnings = List.of(TRUNCATED);
    }
    List<String> result = shown;
    return ApiJson.success(out -> ApiJson.strings(out, result), warnings, List.of());
  }
}
