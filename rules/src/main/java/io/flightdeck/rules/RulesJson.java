package io.flightdeck.rules;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.flightdeck.model.Labels;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Renders the {@code data} of {@code /api/v1/rules} and {@code /api/v1/alerts} answers in
 * Prometheus's exact JSON shape; the API layer adds the envelope it writes for every endpoint.
 * Plain functions over snapshots.
 */
public final class RulesJson {
  private static final JsonFactory JSON = new JsonFactory();

  private RulesJson() {}

  /** The rules answer's data; groups whose rules were all filtered out are left out. */
  public static String rules(List<GroupSnapshot> groups, RulesFilter filter) {
    return write(
        g -> {
          g.writeArrayFieldStart("groups");
          for (GroupSnapshot group : groups) {
            if (!filter.groupNames().isEmpty() && !filter.groupNames().contains(group.name())) {
              continue;
            }
            if (!filter.files().isEmpty() && !filter.files().contains(group.file())) {
              continue;
            }
            List<RuleSnapshot> rules = new ArrayList<>();
            for (RuleSnapshot r : group.rules()) {
              boolean typeOk =
                  r.type() == RuleSnapshot.Type.ALERTING ? filter.alerts() : filter.recording();
              if (typeOk
                  && (filter.ruleNames().isEmpty() || filter.ruleNames().contains(r.name()))) {
                rules.add(r);
              }
            }
            if (rules.isEmpty()) {
              continue;
            }
            g.writeStartObject();
            g.writeStringField("name", group.name());
            g.writeStringField("file", group.file());
            g.writeArrayFieldStart("rules");
            for (RuleSnapshot r : rules) {
              rule(g, r, filter.excludeAlerts());
            }
            g.writeEndArray();
            g.writeFieldName("interval");
            number(g, group.intervalSeconds());
            g.writeNumberField("limit", group.limit());
            g.writeFieldName("evaluationTime");
            number(g, group.evaluationTimeSeconds());
            g.writeStringField("lastEvaluation", time(group.lastEvaluationMs()));
            g.writeEndObject();
          }
          g.writeEndArray();
        });
  }

  /** The alerts answer's data: pending and firing alerts of every alerting rule. */
  public static String alerts(List<GroupSnapshot> groups) {
    return write(
        g -> {
          g.writeArrayFieldStart("alerts");
          for (GroupSnapshot group : groups) {
            for (RuleSnapshot r : group.rules()) {
              for (Alert a : r.alerts()) {
                alert(g, a);
              }
            }
          }
          g.writeEndArray();
        });
  }

  private static void rule(JsonGenerator g, RuleSnapshot r, boolean excludeAlerts)
      throws IOException {
    g.writeStartObject();
    boolean alerting = r.type() == RuleSnapshot.Type.ALERTING;
    if (alerting) {
      g.writeStringField("state", r.state().text());
    }
    g.writeStringField("name", r.name());
    g.writeStringField("query", r.query());
    if (alerting) {
      g.writeFieldName("duration");
      number(g, r.forSeconds());
      g.writeFieldName("keepFiringFor");
      number(g, r.keepFiringForSeconds());
    }
    g.writeFieldName("labels");
    labels(g, r.labels());
    if (alerting) {
      g.writeFieldName("annotations");
      map(g, r.annotations());
      g.writeFieldName("alerts");
      if (excludeAlerts) {
        g.writeNull();
      } else {
        g.writeStartArray();
        for (Alert a : r.alerts()) {
          alert(g, a);
        }
        g.writeEndArray();
      }
    }
    g.writeStringField("health", r.health().text());
    if (!r.lastError().isEmpty()) {
      g.writeStringField("lastError", r.lastError());
    }
    g.writeFieldName("evaluationTime");
    number(g, r.evaluationTimeSeconds());
    g.writeStringField("lastEvaluation", time(r.lastEvaluationMs()));
    g.writeStringField("type", alerting ? "alerting" : "recording");
    g.writeEndObject();
  }

  private static void alert(JsonGenerator g, Alert a) throws IOException {
    g.writeStartObject();
    g.writeFieldName("labels");
    labels(g, a.labels());
    g.writeFieldName("annotations");
    map(g, a.annotations());
    g.writeStringField("state", a.state().text());
    g.writeStringField("activeAt", time(a.activeAtMs()));
    if (a.keepFiringSinceMs() != 0) {
      g.writeStringField("keepFiringSince", time(a.keepFiringSinceMs()));
    }
    g.writeStringField("value", GoFormat.e(a.value(), -1));
    g.writeEndObject();
  }

  private static void labels(JsonGenerator g, Labels labels) throws IOException {
    g.writeStartObject();
    labels.forEach(
        (k, v) -> {
          try {
            g.writeStringField(k, v);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
    g.writeEndObject();
  }

  private static void map(JsonGenerator g, Map<String, String> map) throws IOException {
    g.writeStartObject();
    for (Map.Entry<String, String> e : new java.util.TreeMap<>(map).entrySet()) {
      g.writeStringField(e.getKey(), e.getValue());
    }
    g.writeEndObject();
  }

  /** Go's encoding/json float64: shortest digits, plain unless tiny or huge. */
  private static void number(JsonGenerator g, double v) throws IOException {
    g.writeRawValue(GoFormat.json(v));
  }

  private static String time(long ms) {
    return ms == 0 ? GoTime.ZERO : GoTime.rfc3339(Instant.ofEpochMilli(ms));
  }

  private interface Body {
    void write(JsonGenerator g) throws IOException;
  }

  private static String write(Body body) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      body.write(g);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }
}
