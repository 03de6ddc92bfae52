package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;

/**
 * Decides whether a Grafana {@code datasource} reference means our Prometheus source: null, a name,
 * {@code $datasource}, {@code ${DS_PROMETHEUS}} or {@code {type: prometheus, uid}} all do; a {@code
 * __inputs} entry or an object of another type, and {@code -- Mixed --}, do not.
 */
final class GrafanaDatasources {
  private static final String MIXED = "-- Mixed --";

  private final Map<String, String> inputTypes = new HashMap<>();

  GrafanaDatasources(JsonNode dashboard, String path) {
    for (var input : Json.objects(dashboard, "__inputs", path)) {
      if ("datasource".equals(input.path("type").asText())) {
        inputTypes.put(input.path("name").asText(), input.path("pluginId").asText());
      }
    }
  }

  /** The other type the reference names, or null when it is ours. */
  String foreignType(JsonNode reference) {
    if (reference == null || reference.isNull()) {
      return null;
    }
    if (reference.isTextual()) {
      return foreignName(reference.asText());
    }
    if (reference.isObject()) {
      String type = reference.path("type").asText("");
      String uid = reference.path("uid").asText("");
      if (type.isEmpty() || type.equals("prometheus") || type.startsWith("$")) {
        return uid.isEmpty() ? null : foreignName(uid);
      }
      if (type.equals("datasource") && uid.equals("grafana")) {
        return "grafana";
      }
      if (type.equals("datasource") && uid.equals(MIXED)) {
        return "mixed";
      }
      return type;
    }
    return null;
  }

  private String foreignName(String name) {
    if (name.equals(MIXED)) {
      return "mixed";
    }
    if (name.equals("-- Grafana --") || name.equals("grafana")) {
      return "grafana";
    }
    if (name.startsWith("${") && name.endsWith("}")) {
      String type = inputTypes.get(name.substring(2, name.length() - 1));
      return type == null || type.equals("prometheus") ? null : type;
    }
    return null;
  }
}
