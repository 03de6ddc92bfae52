package io.flightdeck.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.flightdeck.training.RunAlert;
import io.flightdeck.training.RunEvent;
import io.flightdeck.training.RunGpu;
import io.flightdeck.training.RunSummary;
import io.flightdeck.training.StepMap;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/** The JSON of the runs endpoints, as the cockpit contract lays it out; times in Unix seconds. */
final class RunsJson {
  private RunsJson() {}

  static void runs(JsonGenerator out, List<RunSummary> runs) throws IOException {
    out.writeStartArray();
    for (RunSummary run : runs) {
      run(out, run);
    }
    out.writeEndArray();
  }

  static void run(JsonGenerator out, RunSummary run) throws IOException {
    out.writeStartObject();
    out.writeStringField("run", run.run());
    out.writeStringField("status", run.status().wireName());
    out.writeFieldName("first_seen");
    seconds(out, run.firstSeenMs());
    out.writeFieldName("last_seen");
    seconds(out, run.lastSeenMs());
    number(out, "step", run.step());
    number(out, "max_steps", run.maxSteps());
    number(out, "epoch", run.epoch());
    number(out, "steps_per_second", run.stepsPerSecond());
    number(out, "eta_seconds", run.etaSeconds());
    number(out, "eta_low_seconds", run.etaLowSeconds());
    number(out, "eta_high_seconds", run.etaHighSeconds());
    out.writeObjectFieldStart("last");
    number(out, "loss", run.lastLoss());
    number(out, "samples_per_second", run.lastSamplesPerSecond());
    number(out, "learning_rate", run.lastLearningRate());
    out.writeEndObject();
    out.writeStringField("loss_metric", run.lossMetric());
    out.writeStringField("step_metric", run.stepMetric());
    out.writeArrayFieldStart("gpus");
    for (RunGpu gpu : run.gpus()) {
      out.writeStartObject();
      out.writeStringField("host", gpu.host());
      out.writeStringField("gpu", gpu.gpu());
      out.writeStringField("uuid", gpu.uuid());
      out.writeEndObject();
    }
    out.writeEndArray();
    out.writeFieldName("hosts");
    ApiJson.strings(out, run.hosts());
    out.writeArrayFieldStart("alerts");
    for (RunAlert alert : run.alerts()) {
      out.writeStartObject();
      out.writeStringField("alertname", alert.alertname());
      out.writeStringField("severity", alert.severity());
      out.writeStringField("state", alert.state());
      out.writeFieldName("active_at");
      seconds(out, alert.activeAtMs());
      out.writeFieldName("labels");
      stringMap(out, alert.labels());
      // The stored ALERTS series carry no annotations; /api/v1/alerts has them.
      out.writeObjectFieldStart("annotations");
      out.writeEndObject();
      out.writeEndObject();
    }
    out.writeEndArray();
    out.writeFieldName("sources");
    ApiJson.strings(out, run.sources());
    out.writeEndObject();
  }

  static void stepMap(JsonGenerator out, StepMap map) throws IOException {
    out.writeStartObject();
    out.writeArrayFieldStart("segments");
    for (StepMap.Segment segment : map.segments()) {
      out.writeStartObject();
      out.writeArrayFieldStart("points");
      for (int i = 0; i < segment.size(); i++) {
        out.writeStartArray();
        seconds(out, segment.times()[i]);
        value(out, segment.steps()[i]);
        out.writeEndArray();
      }
      out.writeEndArray();
      out.writeEndObject();
    }
    out.writeEndArray();
    out.writeEndObject();
  }

  static void events(JsonGenerator out, List<RunEvent> events) throws IOException {
    out.writeStartArray();
    for (RunEvent event : events) {
      out.writeStartObject();
      out.writeStringField("kind", event.kind());
      out.writeFieldName("time");
      seconds(out, event.timeMs());
      out.writeFieldName("end");
      if (event.endMs() == null) {
        out.writeNull();
      } else {
        seconds(out, event.endMs());
      }
      number(out, "step", event.step());
      out.writeStringField("host", event.host());
      out.writeStringField("gpu", event.gpu());
      out.writeStringField("title", event.title());
      out.writeFieldName("labels");
      stringMap(out, event.labels());
      out.writeFieldName("evidence");
      if (event.evidence() == null) {
        out.writeNull();
      } else {
        out.writeStartObject();
        for (Map.Entry<String, Object> entry : event.evidence().entrySet()) {
          out.writeFieldName(entry.getKey());
          if (entry.getValue() instanceof Number number) {
            value(out, number.doubleValue());
          } else {
            out.writeString(String.valueOf(entry.getValue()));
          }
        }
        out.writeEndObject();
      }
      out.writeEndObject();
    }
    out.writeEndArray();
  }

  /** Milliseconds as Unix seconds, a plain JSON number. */
  static void seconds(JsonGenerator out, long ms) throws IOException {
    out.writeNumber(GoFloats.jsonNumber(ms / 1000.0));
  }

  /** A number, or Prometheus's strings for NaN and the infinities. */
  static void value(JsonGenerator out, double v) throws IOException {
    if (Double.isNaN(v)) {
      out.writeString("NaN");
    } else if (Double.isInfinite(v)) {
      out.writeString(v > 0 ? "+Inf" : "-Inf");
    } else if (v != 0 && v == Math.rint(v) && Math.abs(v) < 1e15) {
      out.writeNumber((long) v); // steps, counts, bytes: Go writes whole numbers as integers too
    } else {
      out.writeNumber(GoFloats.jsonNumber(v));
    }
  }

  private static void number(JsonGenerator out, String field, Double v) throws IOException {
    out.writeFieldName(field);
    if (v == null) {
      out.writeNull();
    } else {
      value(out, v);
    }
  }

  private static void stringMap(JsonGenerator out, Map<String, String> map) throws IOException {
    out.writeStartObject();
    for (Map.Entry<String, String> entry : map.entrySet()) {
      out.writeStringField(entry.getKey(), entry.getValue());
    }
    out.writeEndObject();
  }
}
