package io.flightdeck.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.google.re2j.Pattern;
import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.promql.PromQL;
import io.flightdeck.promql.parser.ParseException;
import io.flightdeck.promql.parser.VectorSelector;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Renders the targets and target metadata answers from a {@link TargetsSource} snapshot. */
final class TargetsHandler {
  /** Go's zero {@code time.Time}, what Prometheus shows for a target never scraped. */
  private static final Pattern SMALL_INT = Pattern.compile("[+-]?\\d{1,9}");

  private static final String NEVER = "0001-01-01T00:00:00Z";

  private final TargetsSource source;

  TargetsHandler(TargetsSource source) {
    this.source = source;
  }

  byte[] targets(Params params) {
    String pool = params.get("scrapePool");
    String state = params.get("state").toLowerCase(Locale.ROOT);
    boolean active = state.isEmpty() || state.equals("any") || state.equals("active");
    boolean dropped = state.isEmpty() || state.equals("any") || state.equals("dropped");
    List<TargetsSource.Active> actives = new ArrayList<>();
    if (active) {
      for (TargetsSource.Active target : source.activeTargets()) {
        if (pool.isEmpty() || pool.equals(target.scrapePool())) {
          actives.add(target);
        }
      }
      actives.sort(Comparator.comparing(TargetsSource.Active::scrapePool));
    }
    List<TargetsSource.Dropped> drops = new ArrayList<>();
    Map<String, Integer> dropCounts = new TreeMap<>();
    if (dropped) {
      for (TargetsSource.Dropped target : source.droppedTargets()) {
        dropCounts.merge(target.scrapePool(), 1, Integer::sum);
        if (pool.isEmpty() || pool.equals(target.scrapePool())) {
          drops.add(target);
        }
      }
      drops.sort(Comparator.comparing(TargetsSource.Dropped::scrapePool));
    }
    return ApiJson.success(
        out -> {
          out.writeStartObject();
          out.writeArrayFieldStart("activeTargets");
          for (TargetsSource.Active target : actives) {
            active(out, target);
          }
          out.writeEndArray();
          out.writeArrayFieldStart("droppedTargets");
          for (TargetsSource.Dropped target : drops) {
            out.writeStartObject();
            out.writeFieldName("discoveredLabels");
            ApiJson.labels(out, target.discoveredLabels());
            out.writeStringField("scrapePool", target.scrapePool());
            out.writeEndObject();
          }
          out.writeEndArray();
          out.writeFieldName("droppedTargetCounts");
          if (dropped) {
            out.writeStartObject();
            for (Map.Entry<String, Integer> count : dropCounts.entrySet()) {
              out.writeNumberField(count.getKey(), count.getValue());
            }
            out.writeEndObject();
          } else {
            out.writeNull();
          }
          out.writeEndObject();
        });
  }

  private static void active(JsonGenerator out, TargetsSource.Active target) throws IOException {
    out.writeStartObject();
    out.writeFieldName("discoveredLabels");
    ApiJson.labels(out, target.discoveredLabels());
    out.writeFieldName("labels");
    ApiJson.labels(out, target.labels());
    out.writeStringField("scrapePool", target.scrapePool());
    out.writeStringField("scrapeUrl", target.scrapeUrl());
    out.writeStringField("globalUrl", target.globalUrl());
    out.writeStringField("lastError", target.lastError());
    out.writeStringField(
        "lastScrape",
        target.lastScrapeMillis() == 0
            ? NEVER
            : ApiJson.goTime(Instant.ofEpochMilli(target.lastScrapeMillis())));
    out.writeFieldName("lastScrapeDuration");
    out.writeNumber(GoFloats.jsonNumber(target.lastScrapeDurationSeconds()));
    out.writeStringField("health", target.health().name().toLowerCase(Locale.ROOT));
    out.writeStringField("scrapeInterval", target.scrapeInterval());
    out.writeStringField("scrapeTimeout", target.scrapeTimeout());
    out.writeEndObject();
  }

  byte[] metadata(Params params) {
    int limit = limit(params.get("limit"));
    List<Matcher> matchers = matchers(params.get("match_target"));
    String metric = params.get("metric");
    List<TargetsSource.Metadata> shown = new ArrayList<>();
    for (TargetsSource.Metadata entry : source.targetMetadata()) {
      if (limit >= 0 && shown.size() >= limit) {
        break;
      }
      if ((metric.isEmpty() || metric.equals(entry.metric()))
          && matches(entry.target(), matchers)) {
        shown.add(entry);
      }
    }
    return ApiJson.success(
        out -> {
          out.writeStartArray();
          for (TargetsSource.Metadata entry : shown) {
            out.writeStartObject();
            out.writeFieldName("target");
            ApiJson.labels(out, entry.target());
            if (metric.isEmpty()) {
              out.writeStringField("metric", entry.metric());
            }
            out.writeStringField("type", entry.metadata().type().wireName());
            out.writeStringField("help", entry.metadata().help());
            out.writeStringField("unit", entry.metadata().unit());
            out.writeEndObject();
          }
          out.writeEndArray();
        });
  }

  private static boolean matches(Labels labels, List<Matcher> matchers) {
    for (Matcher matcher : matchers) {
      if (!matcher.matches(labels.get(matcher.name()))) {
        return false;
      }
    }
    return true;
  }

  private static int limit(String text) {
    if (text.isEmpty()) {
      return -1;
    }
    if (!SMALL_INT.matches(text)) {
      throw ApiException.badData("limit must be a number");
    }
    return Integer.parseInt(text);
  }

  private static List<Matcher> matchers(String text) {
    if (text.isEmpty()) {
      return List.of();
    }
    try {
      if (PromQL.parse(text) instanceof VectorSelector selector) {
        return selector.matchers();
      }
    } catch (ParseException e) {
      throw ApiException.invalidParam("match_target", e.getMessage());
    }
    throw ApiException.invalidParam("match_target", "not a series selector: " + text);
  }
}
