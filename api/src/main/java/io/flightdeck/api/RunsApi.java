package io.flightdeck.api;

import io.flightdeck.model.Clock;
import io.flightdeck.training.RunCatalog;
import io.flightdeck.training.RunEvent;
import io.flightdeck.training.RunSummary;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The training runs under {@code /api/v1/runs}: the list, one run, its step map and its events,
 * from a {@link RunCatalog}; the events from an {@link EventSource}, the server's detection loop
 * that has them ready for running runs. Answers use Prometheus's envelope; an unknown run is 404
 * {@code not_found}. Thread-safe.
 */
public final class RunsApi {
  private static final String PREFIX = "/api/v1/runs";

  /** The events of a run between two times (ms), sorted by time; empty for an unknown run. */
  @FunctionalInterface
  public interface EventSource {
    Optional<List<RunEvent>> events(String run, long startMs, long endMs);
  }

  private final RunCatalog catalog;
  private final EventSource events;
  private final Clock clock;

  /**
   * @param events {@code DetectionLoop::events} in the server; {@code catalog::events} computes
   *     them at each request
   */
  public RunsApi(RunCatalog catalog, EventSource events, Clock clock) {
    this.catalog = catalog;
    this.events = events;
    this.clock = clock;
  }

  /**
   * Every endpoint, with its full path; all are GET. The run is a {@code <run>} path parameter, the
   * router's form that may hold slashes, since TensorBoard runs are directories ({@code
   * exp1/train}); so the routes with a suffix come first and must be registered in this order.
   */
  public List<ApiRoute> routes() {
    return List.of(
        perRun("/stepmap", this::stepMap),
        perRun("/events", this::events),
        perRun("", this::run),
        new ApiRoute("GET", PREFIX, exchange -> PrometheusApi.handle(exchange, this::runs)));
  }

  private ApiRoute perRun(String suffix, BiFunction<Params, String, byte[]> handler) {
    return new ApiRoute(
        "GET",
        PREFIX + "/<run>" + suffix,
        exchange ->
            PrometheusApi.handle(
                exchange, params -> handler.apply(params, exchange.pathParam("run"))));
  }

  private byte[] runs(Params params) {
    List<RunSummary> runs;
    try {
      runs = catalog.runs(params.get("match"));
    } catch (IllegalArgumentException e) {
      throw ApiException.invalidParam("match", e.getMessage());
    }
    return ApiJson.success(out -> RunsJson.runs(out, runs));
  }

  private byte[] run(Params params, String name) {
    RunSummary run = find(name);
    return ApiJson.success(out -> RunsJson.run(out, run));
  }

  private byte[] stepMap(Params params, String name) {
    long[] range = range(params, name);
    var map = catalog.stepMap(name, range[0], range[1]).orElseThrow(() -> notFound(name));
    return ApiJson.success(out -> RunsJson.stepMap(out, map));
  }

  private byte[] events(Params params, String name) {
    long[] range = range(params, name);
    List<RunEvent> found =
        events.events(name, range[0], range[1]).orElseThrow(() -> notFound(name));
    return ApiJson.success(out -> RunsJson.events(out, found));
  }

  /** {@code start} (default: the run's first sample) and {@code end} (default: now), in ms. */
  private long[] range(Params params, String name) {
    long end = params.time("end", clock.millis());
    long start = params.get("start").isEmpty() ? find(name).firstSeenMs() : params.time("start", 0);
    if (end < start) {
      throw ApiException.invalidParam("end", "end timestamp must not be before start time");
    }
    return new long[] {start, end};
  }

  private RunSummary find(String name) {
    return catalog.run(name).orElseThrow(() -> notFound(name));
  }

  static ApiException notFound(String run) {
    return new ApiException(ErrorType.NOT_FOUND, "run " + quote(run) + " not found");
  }

  static String quote(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
