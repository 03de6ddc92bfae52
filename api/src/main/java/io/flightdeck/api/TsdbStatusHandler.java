package io.flightdeck.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.SeriesSet;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /api/v1/status/tsdb}: cardinality of the head, counted over its series on each request the
 * way Prometheus counts its postings (memory per label name is the value bytes times the series
 * holding each value).
 */
final class TsdbStatusHandler {
  private static final int MAX_LIMIT = 10_000;

  private final HeadStatsSource head;

  TsdbStatusHandler(HeadStatsSource head) {
    this.head = head;
  }

  byte[] status(Params params) {
    int limit = limit(params.get("limit"));
    long minTime = head.minTime();
    long maxTime = head.maxTime();
    Map<String, Long> byMetric = new HashMap<>();
    Map<String, Map<String, Long>> byLabel = new HashMap<>();
    long numSeries = 0;
    try (Querier querier = head.head().querier(minTime, maxTime)) {
      SeriesSet series = querier.select(false, Matcher.regex(Labels.METRIC_NAME, ".+"));
      while (series.next()) {
        numSeries++;
        Labels labels = series.at().labels();
        byMetric.merge(labels.metricName(), 1L, Long::sum);
        for (int i = 0; i < labels.size(); i++) {
          byLabel
              .computeIfAbsent(labels.name(i), k -> new HashMap<>())
              .merge(labels.value(i), 1L, Long::sum);
        }
      }
    }
    Map<String, Long> valueCounts = new HashMap<>();
    Map<String, Long> memory = new HashMap<>();
    Map<String, Long> pairs = new HashMap<>();
    byLabel.forEach(
        (name, values) -> {
          valueCounts.put(name, (long) values.size());
          long bytes = 0;
          for (Map.Entry<String, Long> value : values.entrySet()) {
            bytes += value.getKey().getBytes(StandardCharsets.UTF_8).length * value.getValue();
            pairs.put(name + "=" + value.getKey(), value.getValue());
          }
          memory.put(name, bytes);
        });
    long seriesCount = numSeries;
    long chunkCount = head.chunkCount();
    return ApiJson.success(
        out -> {
          out.writeStartObject();
          out.writeObjectFieldStart("headStats");
          out.writeNumberField("numSeries", seriesCount);
          out.writeNumberField("numLabelPairs", pairs.size());
          out.writeNumberField("chunkCount", chunkCount);
          out.writeNumberField("minTime", minTime);
          out.writeNumberField("maxTime", maxTime);
          out.writeEndObject();
          top(out, "seriesCountByMetricName", byMetric, limit);
          top(out, "labelValueCountByLabelName", valueCounts, limit);
          top(out, "memoryInBytesByLabelName", memory, limit);
          top(out, "seriesCountByLabelValuePair", pairs, limit);
          out.writeEndObject();
        });
  }

  private static int limit(String text) {
    if (text.isEmpty()) {
      return 10;
    }
    int limit;
    try {
      limit = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      limit = 0;
    }
    if (limit < 1) {
      throw ApiException.badData("limit must be a positive number");
    }
    if (limit > MAX_LIMIT) {
      throw ApiException.badData("limit must not exceed " + MAX_LIMIT);
    }
    return limit;
  }

  /** The largest counts first, ties by name, as {@code [{"name":...,"value":...}]}. */
  private static void top(JsonGenerator out, String field, Map<String, Long> counts, int limit)
      throws IOException {
    List<Map.Entry<String, Long>> sorted =
        counts.entrySet().stream()
            .sorted(
                Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                    .thenComparing(Map.Entry.comparingByKey()))
            .limit(limit)
            .toList();
    out.writeArrayFieldStart(field);
    for (Map.Entry<String, Long> entry : sorted) {
      out.writeStartObject();
      out.writeStringField("name", entry.getKey());
      out.writeNumberField("value", entry.getValue());
      out.writeEndObject();
    }
    out.writeEndArray();
  }
}
