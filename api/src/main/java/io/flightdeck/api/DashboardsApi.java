package io.flightdeck.api;

import io.flightdeck.dashboards.Dashboard;
import io.flightdeck.dashboards.DashboardFormatException;
import io.flightdeck.dashboards.DashboardImporter;
import io.flightdeck.dashboards.DashboardStore;
import io.flightdeck.dashboards.DashboardStoreException;
import io.flightdeck.dashboards.GrafanaClassicExporter;
import io.flightdeck.dashboards.PersesExporter;
import io.flightdeck.dashboards.SaveRequest;
import io.flightdeck.dashboards.StableJson;
import io.flightdeck.dashboards.StoredDashboard;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Dashboards under {@code /api/v1/dashboards}: the list (with tags and folders, filtered by {@code
 * query}, {@code tag} and {@code folder}), one dashboard in the model's JSON, save, delete, import
 * with its report, export as Grafana or Perses JSON, and the versions with restore. Answers use
 * Prometheus's envelope, except export, which answers the document itself so that it can be saved
 * as a file. A bad document is 400 {@code bad_data} naming what and where; nothing is saved then.
 */
public final class DashboardsApi {
  private static final String PREFIX = "/api/v1/dashboards";
  private static final String DEFAULT_AUTHOR = "api";

  private final DashboardStore store;

  public DashboardsApi(DashboardStore store) {
    this.store = store;
  }

  /** Every endpoint with its full path; {@code /import} is registered before {@code /{uid}}. */
  public List<ApiRoute> routes() {
    return List.of(
        route("GET", PREFIX, this::list),
        route("POST", PREFIX + "/import", this::importDashboard),
        route("GET", PREFIX + "/{uid}/export", this::export),
        route("GET", PREFIX + "/{uid}/versions", this::versions),
        route("GET", PREFIX + "/{uid}/versions/{version}", this::version),
        route("POST", PREFIX + "/{uid}/versions/{version}/restore", this::restore),
        route("GET", PREFIX + "/{uid}", this::get),
        route("PUT", PREFIX + "/{uid}", this::put),
        route("DELETE", PREFIX + "/{uid}", this::delete));
  }

  private interface Handler {
    PrometheusApi.Body handle(ApiExchange exchange, Params params);
  }

  private static ApiRoute route(String method, String path, Handler handler) {
    return new ApiRoute(
        method,
        path,
        exchange ->
            PrometheusApi.handleBody(
                exchange, params -> translated(() -> handler.handle(exchange, params))));
  }

  /** The dashboards module's refusals as the API's errors. */
  private static PrometheusApi.Body translated(
      java.util.function.Supplier<PrometheusApi.Body> call) {
    try {
      return call.get();
    } catch (DashboardFormatException e) {
      throw ApiException.badData(e.getMessage());
    } catch (DashboardStoreException e) {
      throw switch (e.reason()) {
        case NOT_FOUND -> new ApiException(ErrorType.NOT_FOUND, e.getMessage());
        case BAD_REQUEST -> ApiException.badData(e.getMessage());
        case IO -> new ApiException(ErrorType.INTERNAL, e.getMessage() + causeOf(e));
      };
    }
  }

  private static String causeOf(Throwable e) {
    return e.getCause() == null ? "" : ": " + e.getCause().getMessage();
  }

  private static PrometheusApi.Body json(ApiJson.Value data) {
    return new PrometheusApi.Body(ApiJson.CONTENT_TYPE, ApiJson.success(data));
  }

  private PrometheusApi.Body list(ApiExchange exchange, Params params) {
    String query = params.get("query").toLowerCase(Locale.ROOT);
    List<String> tags = params.all("tag");
    String folder = params.get("folder");
    List<StoredDashboard> matching =
        store.list().stream()
            .filter(
                s ->
                    query.isEmpty()
                        || s.dashboard().title().toLowerCase(Locale.ROOT).contains(query))
            .filter(s -> s.dashboard().tags().containsAll(tags))
            .filter(s -> folder.isEmpty() || s.folder().equals(folder))
            .toList();
    return json(out -> DashboardsJson.list(out, matching));
  }

  private PrometheusApi.Body get(ApiExchange exchange, Params params) {
    StoredDashboard stored = find(exchange.pathParam("uid"));
    return json(out -> DashboardsJson.stored(out, stored));
  }

  private PrometheusApi.Body put(ApiExchange exchange, Params params) {
    String uid = exchange.pathParam("uid");
    if (!DashboardImporter.UID.matcher(uid).matches()) {
      throw ApiException.badData(
          "\"" + uid + "\" is not a valid uid: 1 to 40 letters, digits, '-' or '_'");
    }
    SaveRequest request = SaveRequest.parse(exchange.body());
    Dashboard dashboard = request.imported().dashboard();
    if (!dashboard.uid().isEmpty() && !dashboard.uid().equals(uid)) {
      throw ApiException.badData(
          "the document's uid \"" + dashboard.uid() + "\" differs from the path's \"" + uid + "\"");
    }
    StoredDashboard saved =
        store.save(
            dashboard.withUid(uid),
            folderOf(request, uid),
            author(request, params),
            request.message());
    return json(out -> DashboardsJson.saved(out, saved, request.imported().report()));
  }

  private PrometheusApi.Body importDashboard(ApiExchange exchange, Params params) {
    SaveRequest request = SaveRequest.parse(exchange.body());
    Dashboard dashboard = request.imported().dashboard();
    boolean overwrite = request.overwrite() || "true".equals(params.get("overwrite"));
    if (!dashboard.uid().isEmpty() && store.get(dashboard.uid()).isPresent() && !overwrite) {
      throw ApiException.badData(
          "a dashboard with uid \""
              + dashboard.uid()
              + "\" exists; import with overwrite to replace it");
    }
    if ("true".equals(params.get("dryRun"))) {
      return json(out -> DashboardsJson.dryRun(out, dashboard, request.imported().report()));
    }
    String folder = request.folder().isEmpty() ? params.get("folder") : request.folder();
    String message = request.message().isEmpty() ? "imported" : request.message();
    StoredDashboard saved = store.save(dashboard, folder, author(request, params), message);
    return json(out -> DashboardsJson.saved(out, saved, request.imported().report()));
  }

  private PrometheusApi.Body delete(ApiExchange exchange, Params params) {
    store.delete(exchange.pathParam("uid"));
    return null;
  }

  private PrometheusApi.Body export(ApiExchange exchange, Params params) {
    Dashboard dashboard = find(exchange.pathParam("uid")).dashboard();
    String format = params.get("format").isEmpty() ? "grafana" : params.get("format");
    Function<Dashboard, byte[]> exporter =
        switch (format) {
          case "grafana" -> d -> StableJson.write(GrafanaClassicExporter.export(d));
          case "perses" -> d -> StableJson.write(PersesExporter.export(d));
          default ->
              throw ApiException.invalidParam(
                  "format", "expected grafana or perses, got \"" + format + "\"");
        };
    return new PrometheusApi.Body(ApiJson.CONTENT_TYPE, exporter.apply(dashboard));
  }

  private PrometheusApi.Body versions(ApiExchange exchange, Params params) {
    var versions = store.versions(exchange.pathParam("uid"));
    return json(out -> DashboardsJson.versions(out, versions));
  }

  private PrometheusApi.Body version(ApiExchange exchange, Params params) {
    String uid = exchange.pathParam("uid");
    int number = versionNumber(exchange);
    Dashboard dashboard = store.version(uid, number);
    var info =
        store.versions(uid).stream().filter(v -> v.version() == number).findFirst().orElseThrow();
    return json(out -> DashboardsJson.version(out, info, dashboard));
  }

  private PrometheusApi.Body restore(ApiExchange exchange, Params params) {
    String uid = exchange.pathParam("uid");
    String author = params.get("author").isEmpty() ? DEFAULT_AUTHOR : params.get("author");
    StoredDashboard restored = store.restore(uid, versionNumber(exchange), author);
    return json(out -> DashboardsJson.stored(out, restored));
  }

  private static int versionNumber(ApiExchange exchange) {
    String text = exchange.pathParam("version");
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw ApiException.badData("version \"" + text + "\" is not a number");
    }
  }

  private StoredDashboard find(String uid) {
    return store
        .get(uid)
        .orElseThrow(
            () -> new ApiException(ErrorType.NOT_FOUND, "dashboard \"" + uid + "\" not found"));
  }

  private String folderOf(SaveRequest request, String uid) {
    if (!request.folder().isEmpty()) {
      return request.folder();
    }
    return store.get(uid).map(StoredDashboard::folder).orElse("");
  }

  private static String author(SaveRequest request, Params params) {
    if (!request.author().isEmpty()) {
      return request.author();
    }
    return params.get("author").isEmpty() ? DEFAULT_AUTHOR : params.get("author");
  }
}
