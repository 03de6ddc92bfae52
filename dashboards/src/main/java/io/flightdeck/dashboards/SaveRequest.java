package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A request to save or import a dashboard: either the dashboard document itself (any format {@link
 * DashboardImporter} reads) or Grafana's save form {@code {"dashboard": ..., "folder": ...,
 * "message": ..., "overwrite": ...}} with our {@code author}.
 */
public record SaveRequest(
    ImportResult imported, String folder, String message, String author, boolean overwrite) {

  public static SaveRequest parse(byte[] body) {
    JsonNode root = DocumentReader.read(body);
    JsonNode dashboard = root.get("dashboard");
    boolean wrapped = dashboard != null && dashboard.isObject() && !root.has("meta");
    if (!wrapped) {
      return new SaveRequest(DashboardImporter.importTree(root), "", "", "", false);
    }
    ImportResult imported;
    try {
      imported = DashboardImporter.importTree(dashboard);
    } catch (DashboardFormatException e) {
      throw new DashboardFormatException(
          e.path().startsWith("$") ? "$.dashboard" + e.path().substring(1) : e.path(),
          e.getMessage().replaceFirst("^at [^:]*: ", ""));
    }
    return new SaveRequest(
        imported,
        Json.text(root, "folder", "$"),
        Json.text(root, "message", "$"),
        Json.text(root, "author", "$"),
        Json.bool(root, "overwrite", false));
  }
}
