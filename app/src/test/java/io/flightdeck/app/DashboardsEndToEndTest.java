package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flightdeck.testkit.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dashboards on a real server: a provisioning folder holding a Grafana dashboard is loaded at start
 * beside the shipped ones, served, exported, and its panel queries resolved on the server.
 */
class DashboardsEndToEndTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void aProvisionedGrafanaDashboardIsListedExportedAndItsQueriesResolved() throws Exception {
    Path folder = Files.createDirectories(dir.resolve("boards"));
    Files.copy(
        SharedFixtures.fixture("dcgm/dcgm-exporter-dashboard.json"), folder.resolve("dcgm.json"));
    try (FlightdeckServerProcess server =
        FlightdeckServerProcess.start(
            dir.resolve("data"),
            Files.createFile(dir.resolve("log")),
            "--dashboards.dir=" + folder)) {
      server.awaitReady();

      JsonNode list = JSON.readTree(TestHttp.get(server.uri("/api/v1/dashboards")).body());
      assertThat(list.path("status").asText()).isEqualTo("success");
      assertThat(list.path("data").findValuesAsText("title"))
          .contains("NVIDIA DCGM Exporter Dashboard");
      assertThat(list.path("data").findValuesAsText("provisionedFrom"))
          .anySatisfy(from -> assertThat(from).endsWith("dcgm.json"));

      JsonNode exported =
          JSON.readTree(
              TestHttp.get(server.uri("/api/v1/dashboards/Oxed_c6Wz/export?format=grafana"))
                  .body());
      assertThat(exported.path("panels")).hasSize(8);

      JsonNode queries =
          JSON.readTree(TestHttp.get(server.uri("/api/v1/dashboards/Oxed_c6Wz/queries")).body());
      assertThat(queries.path("status").asText()).as(queries.toString()).isEqualTo("success");
      assertThat(TestHttp.get(server.uri("/api/v1/dashboards/no-such-uid")).statusCode())
          .isEqualTo(404);
    }
  }
}
