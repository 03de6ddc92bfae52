package io.flightdeck.api;

import io.flightdeck.model.Labels;
import io.flightdeck.promql.PromQL;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.engine.MatrixValue;
import io.flightdeck.promql.engine.QueryException;
import io.flightdeck.promql.engine.QueryValue;
import io.flightdeck.promql.engine.RangeSeries;
import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.ParseException;
import io.flightdeck.storage.Queryable;
import io.flightdeck.training.RunCatalog;
import io.flightdeck.training.StepMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code POST /api/v1/cockpit/series}: a batch of chart queries, each reduced on the server to at
 * most {@code width} buckets of min, max and last on the time, step or relative axis, or (with
 * {@code "aggregate": "band"}, or {@code "auto"} when more than eight series answer) to a
 * min/median/max band with the outliers named and a count of NaN or infinite values per bucket. The
 * queries of one request are answered in parallel, one per core.
 *
 * <p>A plain selector, or an {@code or} of them, is read as raw samples, so every sample counts in
 * its bucket ({@link CockpitRawSeries}); any other expression is evaluated as a range query at two
 * or four steps per bucket ({@link CockpitEvaluationStep}). A query's own failure (bad PromQL, a
 * limit, an unknown run) is its result's {@code error}; the other queries still answer.
 * Thread-safe.
 */
public final class CockpitSeriesApi {
  static final int MAX_SERIES = 500;
  static final long MAX_POINTS = 2_000_000;

  /** Shared by every request: at most one chart query per core at a time. */
  private static final ExecutorService QUERIES =
      Executors.newFixedThreadPool(
          Runtime.getRuntime().availableProcessors(),
          Thread.ofPlatform().name("cockpit-series-", 0).daemon().factory());

  private final Engine engine;
  private final Queryable storage;
  private final RunCatalog catalog;

  public CockpitSeriesApi(Engine engine, Queryable storage, RunCatalog catalog) {
    this.engine = engine;
    this.storage = storage;
    this.catalog = catalog;
  }

  /** The endpoint, POST only. */
  public List<ApiRoute> routes() {
    return List.of(
        new ApiRoute(
            "POST",
            "/api/v1/cockpit/series",
            exchange -> PrometheusApi.handle(exchange, params -> series(exchange.body()))));
  }

  /** A named series reduced to buckets, or a query's failure. */
  record Result(
      String id,
      String error,
      List<Labels> labels,
      List<CockpitBuckets.Reduced> series,
      CockpitBand.Band band,
      long points) {
    static Result failed(String id, String error) {
      return new Result(id, error, List.of(), List.of(), null, 0);
    }
  }

  /** A query failure that becomes the result's {@code error}. */
  private static final class QueryRefused extends RuntimeException {
    private static final long serialVersionUID = 1L;

    QueryRefused(String message) {
      super(message);
    }
  }

  byte[] series(byte[] body) {
    CockpitSeriesRequest request = CockpitSeriesRequest.parse(body);
    // One axis per run and kind for the whole batch: a step axis reads every rank's step counter
    // over the range, which took 0.2-0.4 s a query on a 64-rank day (bench/README.md, cockpit).
    Map<String, XAxis> axes = new ConcurrentHashMap<>();
    // A page's charts are independent queries: answered side by side on every core, so the
    // page waits for its slowest chart rather than for the sum of them.
    List<Future<Result>> pending = new ArrayList<>();
    for (CockpitSeriesRequest.Query query : request.queries()) {
      pending.add(QUERIES.submit(() -> answer(request, query, axes)));
    }
    List<Result> results = new ArrayList<>();
    for (Future<Result> result : pending) {
      results.add(await(result));
    }
    return ApiJson.success(out -> CockpitSeriesJson.results(out, results));
  }

  private static Result await(Future<Result> result) {
    try {
      return result.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QueryException(QueryException.Kind.CANCELED, "the request was interrupted");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  private Result answer(
      CockpitSeriesRequest request, CockpitSeriesRequest.Query query, Map<String, XAxis> axes) {
    try {
      List<RangeSeries> raw = evaluate(request, query);
      long points = raw.stream().mapToLong(RangeSeries::size).sum();
      XAxis axis =
          axes.computeIfAbsent(query.x() + "\u0000" + query.run(), k -> axis(request, query));
      List<double[]> xs = new ArrayList<>();
      double lo = Double.POSITIVE_INFINITY;
      double hi = Double.NEGATIVE_INFINITY;
      for (RangeSeries series : raw) {
        double[] x = axis.xs(series.timestamps(), series.size());
        for (int i = 0; i < x.length; i++) {
          if (!Double.isNaN(x[i])) {
            lo = Math.min(lo, x[i]);
            hi = Math.max(hi, x[i]);
          }
        }
        xs.add(x);
      }
      if (query.x() != CockpitSeriesRequest.Axis.STEP) {
        // Time-like axes span the requested range, so charts of one page share their buckets.
        lo = axis.x(request.startMs());
        hi = axis.x(request.endMs());
      }
      List<CockpitBuckets.Reduced> reduced = new ArrayList<>();
      List<Labels> labels = new ArrayList<>();
      for (int s = 0; s < raw.size(); s++) {
        reduced.add(CockpitBuckets.reduce(xs.get(s), raw.get(s).values(), lo, hi, request.width()));
        labels.add(raw.get(s).labels());
      }
      if (drawnAsBand(query, raw)) {
        CockpitBand.Band band = CockpitBand.of(reduced, request.width());
        List<Labels> outlierLabels = new ArrayList<>();
        List<CockpitBuckets.Reduced> outliers = new ArrayList<>();
        for (int index : band.outliers()) {
          outlierLabels.add(labels.get(index));
          outliers.add(reduced.get(index));
        }
        return new Result(query.id(), null, outlierLabels, outliers, band, points);
      }
      return new Result(query.id(), null, labels, reduced, null, points);
    } catch (QueryRefused e) {
      return Result.failed(query.id(), e.getMessage());
    } catch (ParseException e) {
      return Result.failed(
          query.id(), "invalid expression " + RunsApi.quote(query.expr()) + ": " + e.getMessage());
    } catch (QueryException e) {
      return Result.failed(query.id(), e.getMessage());
    }
  }

  private static boolean drawnAsBand(CockpitSeriesRequest.Query query, List<RangeSeries> raw) {
    return switch (query.aggregate()) {
      case NONE -> false;
      case BAND -> true;
      case AUTO -> raw.size() > CockpitSeriesRequest.AUTO_BAND_ABOVE && oneMetric(raw);
    };
  }

  /** Whether every series is the same metric (and TensorBoard tag): ranks or GPUs of one thing. */
  private static boolean oneMetric(List<RangeSeries> raw) {
    Labels first = raw.getFirst().labels();
    for (RangeSeries series : raw) {
      if (!Objects.equals(series.labels().get("__name__"), first.get("__name__"))
          || !Objects.equals(series.labels().get("tag"), first.get("tag"))) {
        return false;
      }
    }
    return true;
  }

  private List<RangeSeries> evaluate(
      CockpitSeriesRequest request, CockpitSeriesRequest.Query query) {
    Expr expr = PromQL.parse(query.expr());
    CockpitRawSeries raw = CockpitRawSeries.of(expr);
    if (raw != null) {
      return raw.read(
          storage,
          request.startMs(),
          request.endMs(),
          new CockpitRawSeries.Limits() {
            @Override
            public void series(int count) {
              checkSeries(query, count);
            }

            @Override
            public void points(long count) {
              checkPoints(query, count);
            }
          });
    }
    long step =
        CockpitEvaluationStep.of(expr, request.endMs() - request.startMs(), request.width());
    QueryValue value =
        engine.rangeQuery(storage, expr, request.startMs(), request.endMs(), step).value();
    if (!(value instanceof MatrixValue matrix)) {
      throw new QueryRefused("query " + RunsApi.quote(query.id()) + " does not give series");
    }
    checkSeries(query, matrix.series().size());
    checkPoints(query, matrix.series().stream().mapToLong(RangeSeries::size).sum());
    return matrix.series();
  }

  private static void checkSeries(CockpitSeriesRequest.Query query, int count) {
    if (query.aggregate() == CockpitSeriesRequest.Aggregate.NONE && count > MAX_SERIES) {
      throw new QueryRefused(
          "query "
              + RunsApi.quote(query.expr())
              + " returned "
              + count
              + " series, more than the "
              + MAX_SERIES
              + " a chart draws; use aggregate=band (or auto) or narrow the selector");
    }
  }

  private static void checkPoints(CockpitSeriesRequest.Query query, long points) {
    if (points > MAX_POINTS) {
      throw new QueryRefused(
          "query "
              + RunsApi.quote(query.expr())
              + " reads more than "
              + MAX_POINTS
              + " raw points; narrow the selector or the time range");
    }
  }

  /** Maps a sample time (ms) to the chart's x; NaN where the axis has no place for it. */
  @FunctionalInterface
  private interface XAxis {
    double x(long timeMs);

    /** The x of each of a series' times, in order. */
    default double[] xs(long[] timesMs, int count) {
      double[] x = new double[count];
      for (int i = 0; i < count; i++) {
        x[i] = x(timesMs[i]);
      }
      return x;
    }
  }

  private static QueryRefused runNotFound(CockpitSeriesRequest.Query query) {
    return new QueryRefused("run " + RunsApi.quote(query.run()) + " not found");
  }

  private XAxis axis(CockpitSeriesRequest request, CockpitSeriesRequest.Query query) {
    if (query.x() == CockpitSeriesRequest.Axis.TIME) {
      return t -> t / 1000.0;
    }
    if (query.x() == CockpitSeriesRequest.Axis.RELATIVE) {
      long first = catalog.run(query.run()).orElseThrow(() -> runNotFound(query)).firstSeenMs();
      return t -> (t - first) / 1000.0;
    }
    // The range the page asks GET .../stepmap for, so the two requests of a page read it once
    // (RunCatalog keeps a step map two seconds) and the page's cursor maps as the series do.
    StepMap map =
        catalog
            .stepMap(query.run(), request.startMs(), request.endMs())
            .orElseThrow(() -> runNotFound(query));
    return new XAxis() {
      @Override
      public double x(long timeMs) {
        Double step = map.stepAt(timeMs);
        return step == null ? Double.NaN : step;
      }

      @Override
      public double[] xs(long[] timesMs, int count) {
        return map.stepsAt(
            count == timesMs.length ? timesMs : java.util.Arrays.copyOf(timesMs, count));
      }
    };
  }
}
