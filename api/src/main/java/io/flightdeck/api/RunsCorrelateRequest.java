package io.flightdeck.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * The body of {@code POST /api/v1/runs/{run}/correlate}: {@code {"target": "<PromQL>", "start":
 * <unix s>, "end": <unix s>}}, read and checked; every refusal names the field or, for malformed
 * JSON, the line and column. Unknown fields are left for newer clients.
 *
 * @param target the PromQL expression whose moves are explained
 * @param startMs the window's start
 * @param endMs the window's end, after the start
 */
record RunsCorrelateRequest(String target, long startMs, long endMs) {

  static RunsCorrelateRequest parse(byte[] body) {
    return JsonBodies.parse(body, RunsCorrelateRequest::read);
  }

  private static RunsCorrelateRequest read(JsonParser in) throws IOException {
    if (in.nextToken() != JsonToken.START_OBJECT) {
      throw ApiException.badData("the body must be a JSON object");
    }
    String target = null;
    Double start = null;
    Double end = null;
    while (in.nextToken() == JsonToken.FIELD_NAME) {
      String field = in.currentName();
      JsonToken value = in.nextToken();
      switch (field) {
        case "target" -> {
          if (value != JsonToken.VALUE_STRING) {
            throw field("target", "must be a string holding a PromQL expression");
          }
          target = in.getText();
        }
        case "start" -> start = number(in, value, "start");
        case "end" -> end = number(in, value, "end");
        default -> in.skipChildren();
      }
    }
    if (target == null || target.isBlank()) {
      throw field("target", "is missing or empty");
    }
    if (start == null) {
      throw field("start", "is missing");
    }
    if (end == null) {
      throw field("end", "is missing");
    }
    long startMs = Math.round(start * 1000);
    long endMs = Math.round(end * 1000);
    if (endMs <= startMs) {
      throw field("end", "must be after start");
    }
    return new RunsCorrelateRequest(target, startMs, endMs);
  }

  private static double number(JsonParser in, JsonToken value, String name) throws IOException {
    if (value != JsonToken.VALUE_NUMBER_INT && value != JsonToken.VALUE_NUMBER_FLOAT) {
      throw field(name, "must be a Unix time in seconds, not " + in.getText());
    }
    double v = in.getDoubleValue();
    if (!Double.isFinite(v) || Math.abs(v) > 1e13) {
      throw field(name, "is not a usable Unix time: " + in.getText());
    }
    return v;
  }

  private static ApiException field(String name, String problem) {
    return ApiException.badData("invalid field " + name + ": " + problem);
  }
}
