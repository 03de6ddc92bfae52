package io.flightdeck.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.dashboards.DashboardStore;
import io.flightdeck.testkit.ManualClock;
import io.flightdeck.testkit.SharedFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dashboard endpoints over a real store in a temporary directory. */
class DashboardsApiTest {
  @TempDir Path temp;

  private DashboardStore store;
  private List<ApiRoute> routes;

  @BeforeEach
  void open() {
    store =
        DashboardStore.open(
            temp.resolve("dashboards"), List.of(), new ManualClock(1_700_000_000_000L));
    routes = new DashboardsApi(store).routes();
  }

  @AfterEach
  void close() {
    store.close();
  }

  /** One request, routed the way the server's router matches {@code {name}} segments. */
  private static final class Call implements ApiExchange {
    final String method;
    final String path;
    final byte[] requestBody;
    final Map<String, List<String>> query = new HashMap<>();
    final Map<String, String> pathParams = new HashMap<>();
    int status;
    String contentType;
    String body;

    Call(String method, String path, String body) {
      this.method = method;
      String[] parts = path.split("\\?", 2);
      this.path = parts[0];
      if (parts.length == 2) {
        for (String pair : parts[1].split("&")) {
          String[] kv = pair.split("=", 2);
          query.computeIfAbsent(kv[0], k -> new java.util.ArrayList<>()).add(kv[1]);
        }
      }
      this.requestBody = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String method() {
      return method;
    }

    @Override
    public String pathParam(String name) {
      return pathParams.get(name);
    }

    @Override
    public List<String> params(String name) {
      return query.getOrDefault(name, List.of());
    }

    @Override
    public byte[] body() {
      return requestBody;
    }

    @Override
    public void respond(int status, String contentType, byte[] body) {
      this.status = status;
      this.contentType = contentType;
      this.body = new String(body, StandardCharsets.UTF_8);
    }
  }

  private Call call(String method, String path, String body) {
    Call call = new Call(method, path, body);
    for (ApiRoute route : routes) {
      if (!route.method().equals(method)) {
        continue;
      }
      String[] want = route.path().split("/");
      String[] got = call.path.split("/");
      if (want.length != got.length) {
        continue;
      }
      Map<String, String> params = new HashMap<>();
      boolean match = true;
      for (int i = 0; i < want.length && match; i++) {
        if (want[i].startsWith("{")) {
          params.put(want[i].substring(1, want[i].length() - 1), got[i]);
        } else {
          match = want[i].equals(got[i]);
        }
      }
      if (match) {
        call.pathParams.putAll(params);
        route.handler().handle(call);
        return call;
      }
    }
    throw new AssertionError("no route for " + method + " " + path);
  }

  private static String dcgm() throws Exception {
    return Files.readString(SharedFixtures.fixture("dcgm/dcgm-exporter-dashboard.json"));
  }

  @Test
  void listsTheShippedDashboardsWithTagsAndFolders() {
    Call all = call("GET", "/api/v1/dashboards", null);
    assertThat(all.status).isEqualTo(200);
    assertThat(all.body)
        .contains(
            "\"uid\":\"flightdeck-llm-training\"",
            "\"folder\":\"Flightdeck\"",
            "\"tags\":[\"flightdeck\",\"training\",\"gpu\"]");
    Call training = call("GET", "/api/v1/dashboards?tag=training", null);
    assertThat(training.body)
        .contains("flightdeck-llm-training")
        .doesNotContain("flightdeck-gpu-cluster");
    Call searched = call("GET", "/api/v1/dashboards?query=dcgm", null);
    assertThat(searched.body).contains("Oxed_c6Wz").doesNotContain("flightdeck-llm-training");
  }

  @Test
  void importReturnsTheReportAndRefusesToOverwriteUnasked() throws Exception {
    Call refused = call("POST", "/api/v1/dashboards/import", dcgm());
    assertThat(refused.status).isEqualTo(400);
    assertThat(refused.body).contains("uid \\\"Oxed_c6Wz\\\" exists").contains("overwrite");

    Call dryRun = call("POST", "/api/v1/dashboards/import?dryRun=true&overwrite=true", dcgm());
    assertThat(dryRun.status).isEqualTo(200);
    assertThat(dryRun.body)
        .contains("\"panels\":{\"source\":8,\"kept\":8}", "\"queries\":{\"source\":8,\"kept\":8}");
    assertThat(dryRun.body).contains("moved down");

    String wrapped =
        "{\"dashboard\": "
            + dcgm()
            + ", \"folder\": \"GPU\", \"overwrite\": true, \"author\": \"ana\"}";
    Call imported = call("POST", "/api/v1/dashboards/import", wrapped);
    assertThat(imported.status).isEqualTo(200);
    assertThat(imported.body)
        .contains(
            "\"version\":2",
            "\"folder\":\"GPU\"",
            "\"updatedBy\":\"ana\"",
            "\"format\":\"grafana\"");
  }

  @Test
  void saveGetExportAndRestore() throws Exception {
    Call got = call("GET", "/api/v1/dashboards/flightdeck-gpu-cluster", null);
    assertThat(got.status).isEqualTo(200);
    assertThat(got.body)
        .contains("\"schema\":\"flightdeck.dashboard/v1\"", "\"title\":\"GPU cluster\"");

    Call grafana =
        call("GET", "/api/v1/dashboards/flightdeck-gpu-cluster/export?format=grafana", null);
    assertThat(grafana.status).isEqualTo(200);
    assertThat(grafana.body).startsWith("{\n  \"__inputs\"").contains("\"schemaVersion\": 39");

    String edited = grafana.body.replace("\"title\": \"GPU cluster\"", "\"title\": \"Fleet\"");
    Call put = call("PUT", "/api/v1/dashboards/flightdeck-gpu-cluster?author=bo", edited);
    assertThat(put.status).isEqualTo(200);
    assertThat(put.body)
        .contains("\"version\":2", "\"updatedBy\":\"bo\"", "\"folder\":\"Flightdeck\"");

    Call versions = call("GET", "/api/v1/dashboards/flightdeck-gpu-cluster/versions", null);
    assertThat(versions.body).contains("changed $.title: \\\"GPU cluster\\\" → \\\"Fleet\\\"");

    Call restored =
        call("POST", "/api/v1/dashboards/flightdeck-gpu-cluster/versions/1/restore", null);
    assertThat(restored.status).isEqualTo(200);
    assertThat(restored.body).contains("\"version\":3", "\"title\":\"GPU cluster\"");

    Call perses =
        call("GET", "/api/v1/dashboards/flightdeck-gpu-cluster/export?format=perses", null);
    assertThat(perses.body).contains("\"kind\": \"Dashboard\"", "\"TimeSeriesChart\"");
    Call badFormat =
        call("GET", "/api/v1/dashboards/flightdeck-gpu-cluster/export?format=svg", null);
    assertThat(badFormat.status).isEqualTo(400);
    assertThat(badFormat.body).contains("invalid parameter \\\"format\\\"");
  }

  @Test
  void aBadDocumentIsRefusedAndNothingChanges() {
    Call malformed =
        call(
            "PUT",
            "/api/v1/dashboards/flightdeck-gpu-cluster",
            "{\"schemaVersion\": 30, \"panels\": [");
    assertThat(malformed.status).isEqualTo(400);
    assertThat(malformed.body).contains("bad_data", "malformed JSON", "line 1");

    Call otherUid =
        call(
            "PUT",
            "/api/v1/dashboards/flightdeck-gpu-cluster",
            "{\"schemaVersion\": 30, \"uid\": \"other\"}");
    assertThat(otherUid.status).isEqualTo(400);
    assertThat(otherUid.body).contains("differs from the path");

    Call cycle =
        call(
            "POST",
            "/api/v1/dashboards/import",
            "{\"dashboard\": {\"schemaVersion\": 30, \"templating\": {\"list\": [{\"name\": \"a\", \"type\": \"query\","
                + " \"query\": \"$a\"}, {\"name\": \"b\", \"type\": \"query\", \"query\": \"$b $a\"},"
                + " {\"name\": \"c\", \"type\": \"query\", \"query\": \"$b x $c $d\"}, {\"name\": \"d\", \"type\": \"query\","
                + " \"query\": \"$c\"}]}}}");
    assertThat(cycle.status).isEqualTo(400);
    assertThat(cycle.body)
        .contains("$.dashboard.templating.list[2]", "variable cycle: $c → $d → $c");

    Call versions = call("GET", "/api/v1/dashboards/flightdeck-gpu-cluster/versions", null);
    assertThat(versions.body).contains("\"version\":1").doesNotContain("\"version\":2");
    assertThat(call("GET", "/api/v1/dashboards", null).body).doesNotContain("\"uid\":\"\"");
  }

  @Test
  void deleteAndNotFound() {
    Call deleted = call("DELETE", "/api/v1/dashboards/flightdeck-gpu-cluster", null);
    assertThat(deleted.status).isEqualTo(204);
    Call gone = call("GET", "/api/v1/dashboards/flightdeck-gpu-cluster", null);
    assertThat(gone.status).isEqualTo(404);
    assertThat(gone.body)
        .contains("not_found", "dashboard \\\"flightdeck-gpu-cluster\\\" not found");
    assertThat(call("DELETE", "/api/v1/dashboards/flightdeck-gpu-cluster", null).status)
        .isEqualTo(404);
    assertThat(call("GET", "/api/v1/dashboards/nope/versions/1", null).status).isEqualTo(404);
  }
}
