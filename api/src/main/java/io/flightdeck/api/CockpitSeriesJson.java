package io.flightdeck.api;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.List;

/** The {@code data} of {@code POST /api/v1/cockpit/series}, arrays aligned per series. */
final class CockpitSeriesJson {
  private CockpitSeriesJson() {}

  static void results(JsonGenerator out, List<CockpitSeriesApi.Result> results) throws IOException {
    out.writeStartObject();
    out.writeArrayFieldStart("results");
    for (CockpitSeriesApi.Result result : results) {
      result(out, result);
    }
    out.writeEndArray();
    out.writeEndObject();
  }

  private static void result(JsonGenerator out, CockpitSeriesApi.Result result) throws IOException {
    out.writeStartObject();
    out.writeStringField("id", result.id());
    out.writeStringField("error", result.error());
    boolean band = result.band() != null;
    out.writeArrayFieldStart("series");
    if (!band) {
      for (int s = 0; s < result.series().size(); s++) {
        CockpitBuckets.Reduced reduced = result.series().get(s);
        out.writeStartObject();
        out.writeFieldName("metric");
        ApiJson.labels(out, result.labels().get(s));
        array(out, "x", reduced.x());
        array(out, "min", reduced.min());
        array(out, "max", reduced.max());
        array(out, "last", reduced.last());
        out.writeEndObject();
      }
    }
    out.writeEndArray();
    out.writeFieldName("band");
    if (!band) {
      out.writeNull();
    } else {
      CockpitBand.Band b = result.band();
      out.writeStartObject();
      array(out, "x", b.x());
      array(out, "min", b.min());
      array(out, "median", b.median());
      array(out, "max", b.max());
      array(out, "nonfinite", b.nonFinite());
      out.writeArrayFieldStart("outliers");
      for (int s = 0; s < result.series().size(); s++) {
        out.writeStartObject();
        out.writeFieldName("metric");
        ApiJson.labels(out, result.labels().get(s));
        array(out, "x", result.series().get(s).x());
        array(out, "last", result.series().get(s).last());
        out.writeEndObject();
      }
      out.writeEndArray();
      out.writeEndObject();
    }
    out.writeNumberField("points", result.points());
    out.writeEndObject();
  }

  private static void array(JsonGenerator out, String field, double[] values) throws IOException {
    out.writeArrayFieldStart(field);
    for (double v : values) {
      RunsJson.value(out, v);
    }
    out.writeEndArray();
  }
}
