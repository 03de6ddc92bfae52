package io.flightdeck.api;

import com.google.re2j.Pattern;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.storage.MetadataSource;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code /api/v1/metadata}: type, help and unit by metric family, from what ingestion recorded. One
 * entry per family here, so {@code limit_per_metric} is only checked.
 */
final class MetadataHandler {
  private static final Pattern INT64 = Pattern.compile("[+-]?\\d{1,18}");

  private final MetadataSource source;

  MetadataHandler(MetadataSource source) {
    this.source = source;
  }

  byte[] metadata(Params params) {
    int limit = number(params.get("limit"), "limit must be a number");
    number(params.get("limit_per_metric"), "limit_per_metric must be a number");
    String metric = params.get("metric");
    Map<String, MetricMetadata> shown = new TreeMap<>();
    for (Map.Entry<String, MetricMetadata> entry : new TreeMap<>(source.metadata()).entrySet()) {
      if (limit >= 0 && shown.size() >= limit) {
        break;
      }
      if (metric.isEmpty() || metric.equals(entry.getKey())) {
        shown.put(entry.getKey(), entry.getValue());
      }
    }
    return ApiJson.success(
        out -> {
          out.writeStartObject();
          for (Map.Entry<String, MetricMetadata> entry : shown.entrySet()) {
            out.writeArrayFieldStart(entry.getKey());
            out.writeStartObject();
            out.writeStringField("type", entry.getValue().type().wireName());
            out.writeStringField("help", entry.getValue().help());
            out.writeStringField("unit", entry.getValue().unit());
            out.writeEndObject();
            out.writeEndArray();
          }
          out.writeEndObject();
        });
  }

  /** Go's {@code strconv.Atoi} on an optional parameter; -1 when absent. */
  private static int number(String text, String error) {
    if (text.isEmpty()) {
      return -1;
    }
    if (!INT64.matches(text)) {
      throw ApiException.badData(error);
    }
    return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, Long.parseLong(text)));
  }
}
