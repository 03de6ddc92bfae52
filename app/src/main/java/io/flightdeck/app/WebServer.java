package io.flightdeck.app;

import io.flightdeck.api.ApiRoute;
import io.flightdeck.api.PrometheusApi;
import io.flightdeck.api.TargetsApi;
import io.flightdeck.api.TensorBoardApi;
import io.flightdeck.remote.IngestResponse;
import io.flightdeck.remote.PushReceiver;
import io.flightdeck.remote.RemoteWriteReceiver;
import io.flightdeck.remote.TextImportReceiver;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The HTTP edge: maps routes to the handlers of the other modules, which know nothing of Javalin.
 * Bodies of the Prometheus API use its envelope ({@code status}, {@code data}, {@code errorType}).
 */
final class WebServer {
  /**
   * Pushgateway's grouping-key paths, the job name plain or base64-encoded; the angle brackets let
   * the parameter span slashes.
   */
  private static final List<String> PUSH_PATHS =
      List.of("/metrics/job/<grouping>", "/metrics/job@base64/<grouping>");

  private final FlightdeckServer.Options options;
  private final RemoteWriteReceiver receiver;
  private final PushReceiver pushReceiver;
  private final TextImportReceiver importReceiver;
  private final SelfMetrics metrics;
  private final PrometheusApi api;
  private final TensorBoardApi tensorboardApi;
  private final ConfigReloader reloader;
  private final TargetsApi targetsApi;
  private final List<ApiRoute> extraRoutes;
  private final Cockpit cockpit;
  private final ClosedConnections closedConnections = new ClosedConnections();
  private Javalin app;

  private volatile boolean ready;

  WebServer(
      FlightdeckServer.Options options,
      RemoteWriteReceiver receiver,
      PushReceiver pushReceiver,
      TextImportReceiver importReceiver,
      SelfMetrics metrics,
      PrometheusApi api,
      TensorBoardApi tensorboardApi,
      ConfigReloader reloader,
      TargetsApi targetsApi,
      List<ApiRoute> extraRoutes,
      Cockpit cockpit) {
    this.options = options;
    this.receiver = receiver;
    this.pushReceiver = pushReceiver;
    this.importReceiver = importReceiver;
    this.metrics = metrics;
    this.api = api;
    this.tensorboardApi = tensorboardApi;
    this.reloader = reloader;
    this.targetsApi = targetsApi;
    this.extraRoutes = List.copyOf(extraRoutes);
    this.cockpit = cockpit;
  }

  /** From now on {@code /-/ready} answers 200: the server has applied its configuration. */
  void markReady() {
    ready = true;
  }

  void start() {
    app =
        Javalin.create(
            config -> {
              config.startup.showJavalinBanner = false;
              config.http.maxRequestSize = options.maxBodyBytes() + 1024L;
              config.jetty.host = options.listen().host();
              config.jetty.port = options.listen().port();
              config.jetty.threadPool = jettyThreads();
              // GET URLs as long as Prometheus takes them (Go's 1 MiB header limit), for long
              // queries that clients send by GET.
              config.jetty.modifyHttpConfiguration(http -> http.setRequestHeaderSize(1 << 20));
              cockpit.register(config);
              config.routes.get("/-/healthy", ctx -> ctx.result("Flightdeck is Healthy.\n"));
              config.routes.head("/-/healthy", ctx -> ctx.status(200));
              // As Prometheus: 503 until the configuration, rules and scrapes have started.
              config.routes.get(
                  "/-/ready",
                  ctx -> {
                    if (ready) {
                      ctx.result("Flightdeck is Ready.\n");
                    } else {
                      ctx.status(503).result("Service Unavailable\n");
                    }
                  });
              config.routes.head("/-/ready", ctx -> ctx.status(ready ? 200 : 503));
              config.routes.get("/metrics", this::metrics);
              config.routes.post("/api/v1/write", this::remoteWrite);
              for (String pushPath : PUSH_PATHS) {
                config.routes.put(pushPath, ctx -> push(ctx, true));
                config.routes.post(pushPath, ctx -> push(ctx, false));
                config.routes.delete(
                    pushPath, ctx -> reply(ctx, pushReceiver.delete(groupingPath(ctx))));
              }
              config.routes.post(
                  "/api/v1/import/prometheus",
                  ctx ->
                      reply(
                          ctx,
                          importReceiver.handle(
                              ctx.bodyAsBytes(), ctx.queryParams("extra_label"))));
              List<ApiRoute> routes = new ArrayList<>(api.routes());
              routes.addAll(tensorboardApi.routes());
              routes.addAll(targetsApi.routes());
              routes.addAll(extraRoutes);
              config.routes.post("/-/reload", this::reload);
              config.routes.put("/-/reload", this::reload);
              for (ApiRoute route : routes) {
                Handler handler =
                    ctx -> route.handler().handle(new JavalinExchange(ctx, closedConnections));
                switch (route.method()) {
                  case "GET" -> config.routes.get(route.path(), handler);
                  case "POST" -> config.routes.post(route.path(), handler);
                  case "PUT" -> config.routes.put(route.path(), handler);
                  case "DELETE" -> config.routes.delete(route.path(), handler);
                  default -> throw new IllegalStateException("method " + route.method());
                }
              }
            });
    app.start();
  }

  private static org.eclipse.jetty.util.thread.QueuedThreadPool jettyThreads() {
    org.eclipse.jetty.util.thread.QueuedThreadPool pool =
        new org.eclipse.jetty.util.thread.QueuedThreadPool(64, 4);
    pool.setName("http");
    return pool;
  }

  int port() {
    return app.port();
  }

  void stop() {
    if (app != null) {
      app.stop();
    }
  }

  private void metrics(Context ctx) throws IOException {
    ctx.contentType(SelfMetrics.CONTENT_TYPE);
    ctx.result(metrics.scrape());
  }

  /** As Prometheus: 200 when applied, 500 naming the error when the running config stays. */
  private void reload(Context ctx) {
    String error = reloader.reload();
    if (error != null) {
      ctx.status(500).contentType("text/plain; charset=utf-8");
      ctx.result("failed to reload config: " + error + "\n");
    }
  }

  private void remoteWrite(Context ctx) {
    RemoteWriteReceiver.Response response =
        receiver.handle(
            ctx.header("Content-Type"), ctx.header("Content-Encoding"), ctx.bodyAsBytes());
    ctx.header(
        "X-Prometheus-Remote-Write-Samples-Written", Long.toString(response.samplesWritten()));
    ctx.status(response.status());
    if (!response.body().isEmpty()) {
      ctx.contentType("text/plain; charset=utf-8");
      ctx.result(response.body() + "\n");
    }
  }

  private void push(Context ctx, boolean replace) {
    reply(ctx, pushReceiver.push(groupingPath(ctx), ctx.bodyAsBytes(), replace));
  }

  /** The raw path after {@code /metrics/}: the receiver decodes each segment itself. */
  private static String groupingPath(Context ctx) {
    return ctx.path().substring("/metrics/".length());
  }

  private static void reply(Context ctx, IngestResponse response) {
    ctx.status(response.status());
    if (!response.body().isEmpty()) {
      ctx.contentType("text/plain; charset=utf-8");
      ctx.result(response.body() + "\n");
    }
  }
}
