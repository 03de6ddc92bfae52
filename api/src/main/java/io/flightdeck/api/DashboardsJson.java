package io.flightdeck.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.flightdeck.dashboards.Dashboard;
import io.flightdeck.dashboards.DashboardVersion;
import io.flightdeck.dashboards.ImportReport;
import io.flightdeck.dashboards.ModelJson;
import io.flightdeck.dashboards.StoredDashboard;
import java.io.IOException;
import java.util.List;

/** The JSON of the dashboard endpoints' answers. */
final class DashboardsJson {
  private DashboardsJson() {}

  static void list(JsonGenerator out, List<StoredDashboard> dashboards) throws IOException {
    out.writeStartArray();
    for (StoredDashboard stored : dashboards) {
      out.writeStartObject();
      summary(out, stored);
      out.writeEndObject();
    }
    out.writeEndArray();
  }

  private static void summary(JsonGenerator out, StoredDashboard stored) throws IOException {
    Dashboard dashboard = stored.dashboard();
    out.writeStringField("uid", dashboard.uid());
    out.writeStringField("title", dashboard.title());
    out.writeArrayFieldStart("tags");
    for (String tag : dashboard.tags()) {
      out.writeString(tag);
    }
    out.writeEndArray();
    out.writeStringField("folder", stored.folder());
    out.writeNumberField("version", stored.latest().version());
    out.writeStringField("updated", stored.latest().created().toString());
    out.writeStringField("updatedBy", stored.latest().author());
    if (stored.provisioned()) {
      out.writeStringField("provisionedFrom", stored.provisionedFrom());
    } else {
      out.writeNullField("provisionedFrom");
    }
  }

  static void stored(JsonGenerator out, StoredDashboard stored) throws IOException {
    out.writeStartObject();
    summary(out, stored);
    out.writeFieldName("dashboard");
    out.writeRawValue(ModelJson.write(stored.dashboard()).toString());
    out.writeEndObject();
  }

  static void saved(JsonGenerator out, StoredDashboard saved, ImportReport report)
      throws IOException {
    out.writeStartObject();
    summary(out, saved);
    out.writeFieldName("report");
    report(out, report);
    out.writeEndObject();
  }

  static void dryRun(JsonGenerator out, Dashboard dashboard, ImportReport report)
      throws IOException {
    out.writeStartObject();
    out.writeStringField("uid", dashboard.uid());
    out.writeStringField("title", dashboard.title());
    out.writeFieldName("report");
    report(out, report);
    out.writeFieldName("dashboard");
    out.writeRawValue(ModelJson.write(dashboard).toString());
    out.writeEndObject();
  }

  static void report(JsonGenerator out, ImportReport report) throws IOException {
    out.writeStartObject();
    out.writeStringField("format", report.format().name().toLowerCase(java.util.Locale.ROOT));
    out.writeObjectFieldStart("counts");
    for (ImportReport.Count count : report.counts()) {
      out.writeObjectFieldStart(count.what());
      out.writeNumberField("source", count.source());
      out.writeNumberField("kept", count.kept());
      out.writeEndObject();
    }
    out.writeEndObject();
    out.writeArrayFieldStart("unsupported");
    for (ImportReport.UnsupportedField field : report.unsupported()) {
      out.writeStartObject();
      out.writeStringField("path", field.path());
      out.writeStringField("reason", field.reason());
      out.writeEndObject();
    }
    out.writeEndArray();
    out.writeArrayFieldStart("warnings");
    for (String warning : report.warnings()) {
      out.writeString(warning);
    }
    out.writeEndArray();
    out.writeEndObject();
  }

  static void versions(JsonGenerator out, List<DashboardVersion> versions) throws IOException {
    out.writeStartArray();
    for (DashboardVersion version : versions) {
      versionInfo(out, version);
      out.writeEndObject();
    }
    out.writeEndArray();
  }

  static void version(JsonGenerator out, DashboardVersion version, Dashboard dashboard)
      throws IOException {
    versionInfo(out, version);
    out.writeFieldName("dashboard");
    out.writeRawValue(ModelJson.write(dashboard).toString());
    out.writeEndObject();
  }

  /** Opens an object with the version's fields; the caller closes it. */
  private static void versionInfo(JsonGenerator out, DashboardVersion version) throws IOException {
    out.writeStartObject();
    out.writeNumberField("version", version.version());
    out.writeStringField("created", version.created().toString());
    out.writeStringField("author", version.author());
    out.writeStringField("message", version.message());
    out.writeStringField("folder", version.folder());
    out.writeArrayFieldStart("diff");
    for (String line : version.diff()) {
      out.writeString(line);
    }
    out.writeEndArray();
  }
}
