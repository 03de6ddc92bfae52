package io.flightdeck.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.flightdeck.promql.PromQL;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.ParseException;
import io.flightdeck.storage.Queryable;
import io.flightdeck.training.CorrelationGrid;
import io.flightdeck.training.Mover;
import io.flightdeck.training.RunCatalog;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /api/v1/runs/{run}/correlate}, "what moved with this?": with the body {@code
 * {"target": "<PromQL>", "start": <unix s>, "end": <unix s>}}, the run's series that moved with the
 * target in that window, best first, in Prometheus's envelope: a list of {@code {metric, score,
 * sign, lag_seconds, correlation, change, rate}}. The baseline is the window's own length just
 * before it; the target and the candidates are compared at 481 instants (at least 1 s apart) over
 * both ({@link CorrelationGrid}). Candidates are read for at most {@link #BUDGET_MS}; an unknown
 * run is 404 {@code not_found}, a bad body or target 400 {@code bad_data} naming the field.
 * Thread-safe.
 */
public final class RunsCorrelateApi {
  static final int TOP = 20;
  static final long BUDGET_MS = 1500;

  private final Engine engine;
  private final Queryable storage;
  private final RunCatalog catalog;

  public RunsCorrelateApi(Engine engine, Queryable storage, RunCatalog catalog) {
    this.engine = engine;
    this.storage = storage;
    this.catalog = catalog;
  }

  /** The endpoint, POST only; {@code <run>} may hold slashes (TensorBoard runs). */
  public List<ApiRoute> routes() {
    return List.of(
        new ApiRoute(
            "POST",
            "/api/v1/runs/<run>/correlate",
            exchange ->
                PrometheusApi.handle(
                    exchange, params -> correlate(exchange.pathParam("run"), exchange.body()))));
  }

  byte[] correlate(String run, byte[] body) {
    long deadline = System.nanoTime() + BUDGET_MS * 1_000_000;
    RunsCorrelateRequest request = RunsCorrelateRequest.parse(body);
    if (catalog.run(run).isEmpty()) {
      throw RunsApi.notFound(run);
    }
    Expr expr;
    try {
      expr = PromQL.parse(request.target());
    } catch (ParseException e) {
      throw ApiException.badData(
          "invalid field target: " + RunsApi.quote(request.target()) + ": " + e.getMessage());
    }
    CorrelationGrid grid = CorrelationGrid.of(request.startMs(), request.endMs());
    RunsCorrelateTarget target =
        RunsCorrelateTarget.evaluate(engine, storage, expr, request.target(), grid);
    List<Mover> movers =
        catalog
            .movers(run, grid, target.values(), target.read(), TOP, deadline)
            .orElseThrow(() -> RunsApi.notFound(run));
    return ApiJson.success(out -> write(out, movers));
  }

  private static void write(JsonGenerator out, List<Mover> movers) throws IOException {
    out.writeStartArray();
    for (Mover mover : movers) {
      out.writeStartObject();
      out.writeObjectFieldStart("metric");
      for (Map.Entry<String, String> label : mover.metric().entrySet()) {
        out.writeStringField(label.getKey(), label.getValue());
      }
      out.writeEndObject();
      out.writeFieldName("score");
      RunsJson.value(out, mover.score());
      out.writeNumberField("sign", mover.sign());
      out.writeFieldName("lag_seconds");
      RunsJson.value(out, mover.lagSeconds());
      out.writeFieldName("correlation");
      RunsJson.value(out, mover.correlation());
      out.writeFieldName("change");
      RunsJson.value(out, mover.change());
      out.writeBooleanField("rate", mover.rate());
      out.writeEndObject();
    }
    out.writeEndArray();
  }
}
