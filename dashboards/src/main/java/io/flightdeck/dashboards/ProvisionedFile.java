package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A dashboard file in a provisioning folder: where it is, the format it is written in, and its
 * folder in the dashboard list. Saving writes it back in that format, stable for git: JSON with
 * sorted keys and two-space indent, or YAML for a {@code .yaml} Perses file.
 */
record ProvisionedFile(Path path, SourceFormat format, String folder) {
  private static final YAMLMapper YAML = new YAMLMapper();

  boolean yaml() {
    String name = path.getFileName().toString();
    return name.endsWith(".yaml") || name.endsWith(".yml");
  }

  void write(Dashboard dashboard) throws IOException {
    AtomicFiles.write(path, render(dashboard));
  }

  byte[] render(Dashboard dashboard) throws IOException {
    JsonNode tree =
        switch (format) {
          case GRAFANA -> GrafanaClassicExporter.export(dashboard);
          case GRAFANA_V1_RESOURCE -> {
            ObjectNode resource = Json.NODES.objectNode();
            resource.put("apiVersion", "dashboard.grafana.app/v1beta1");
            resource.put("kind", "Dashboard");
            resource.putObject("metadata").put("name", dashboard.uid());
            resource.set("spec", GrafanaClassicExporter.export(dashboard));
            yield resource;
          }
          case PERSES -> PersesExporter.export(dashboard);
          case FLIGHTDECK -> ModelJson.write(dashboard);
        };
    byte[] json = StableJson.write(tree);
    if (!yaml()) {
      return json;
    }
    return YAML.writeValueAsString(YAML.readTree(json)).getBytes(StandardCharsets.UTF_8);
  }
}
