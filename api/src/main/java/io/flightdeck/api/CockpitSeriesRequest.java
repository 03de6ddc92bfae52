package io.flightdeck.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The body of {@code POST /api/v1/cockpit/series}, read and checked; every refusal names the field
 * ({@code queries[2].x}) or, for malformed JSON, the line and column.
 *
 * @param startMs the range's start
 * @param endMs the range's end
 * @param width the most buckets a series is reduced to (the chart's width in pixels)
 */
record CockpitSeriesRequest(long startMs, long endMs, int width, List<Query> queries) {
  static final int MAX_WIDTH = 10_000;
  static final int MAX_QUERIES = 64;

  enum Axis {
    TIME,
    STEP,
    RELATIVE
  }

  /**
   * One chart's query.
   *
   * @param run the run whose step map or start the x axis uses; null for the time axis
   * @param aggregate whether to reduce the series to a min/median/max band with the outliers named
   */
  record Query(String id, String expr, Axis x, String run, Aggregate aggregate) {}

  /**
   * {@code none}: every series; {@code band}: min/median/max with the outliers named; {@code auto}:
   * a band when more series of one metric answer than a chart shows apart ({@link
   * #AUTO_BAND_ABOVE}), as a 64-rank loss; series of different metrics are never banded together.
   */
  enum Aggregate {
    NONE,
    BAND,
    AUTO
  }

  /** More series than this are told apart by no one: {@code auto} draws them as a band. */
  static final int AUTO_BAND_ABOVE = 8;

  static CockpitSeriesRequest parse(byte[] body) {
    return JsonBodies.parse(body, CockpitSeriesRequest::read);
  }

  private static CockpitSeriesRequest read(JsonParser in) throws IOException {
    expect(in, in.nextToken(), JsonToken.START_OBJECT, "the body", "an object");
    Double start = null;
    Double end = null;
    Integer width = null;
    List<Query> queries = null;
    while (in.nextToken() == JsonToken.FIELD_NAME) {
      String field = in.currentName();
      JsonToken value = in.nextToken();
      switch (field) {
        case "start" -> start = number(in, value, "start");
        case "end" -> end = number(in, value, "end");
        case "width" -> width = width(in, value);
        case "queries" -> queries = queries(in, value);
        default -> in.skipChildren(); // unknown fields are left for newer clients
      }
    }
    if (start == null) {
      throw missing("start");
    }
    if (end == null) {
      throw missing("end");
    }
    if (width == null) {
      throw missing("width");
    }
    if (queries == null) {
      throw missing("queries");
    }
    long startMs = Math.round(start * 1000);
    long endMs = Math.round(end * 1000);
    if (endMs <= startMs) {
      throw field("end", "must be after start");
    }
    return new CockpitSeriesRequest(startMs, endMs, width, queries);
  }

  private static int width(JsonParser in, JsonToken value) throws IOException {
    double width = number(in, value, "width");
    if (width != Math.rint(width) || width < 1 || width > MAX_WIDTH) {
      throw field(
          "width", "must be a whole number from 1 to " + MAX_WIDTH + ", not " + in.getText());
    }
    return (int) width;
  }

  private static List<Query> queries(JsonParser in, JsonToken value) throws IOException {
    expect(in, value, JsonToken.START_ARRAY, "queries", "an array");
    List<Query> queries = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    while (in.nextToken() != JsonToken.END_ARRAY) {
      String where = "queries[" + queries.size() + "]";
      if (queries.size() == MAX_QUERIES) {
        throw field("queries", "holds more than " + MAX_QUERIES + " queries; split the request");
      }
      Query query = query(in, where);
      if (!ids.add(query.id())) {
        throw field(where + ".id", "repeats the id " + RunsApi.quote(query.id()));
      }
      queries.add(query);
    }
    return queries;
  }

  private static Query query(JsonParser in, String where) throws IOException {
    expect(in, in.currentToken(), JsonToken.START_OBJECT, where, "an object");
    String id = null;
    String expr = null;
    String run = null;
    Axis axis = Axis.TIME;
    Aggregate aggregate = Aggregate.NONE;
    while (in.nextToken() == JsonToken.FIELD_NAME) {
      String field = in.currentName();
      JsonToken value = in.nextToken();
      String name = where + "." + field;
      switch (field) {
        case "id" -> id = string(in, value, name);
        case "expr" -> expr = string(in, value, name);
        case "run" -> run = value == JsonToken.VALUE_NULL ? null : string(in, value, name);
        case "x" -> axis = axis(string(in, value, name), name);
        case "aggregate" -> aggregate = aggregate(string(in, value, name), name);
        default -> in.skipChildren();
      }
    }
    if (id == null || id.isEmpty()) {
      throw missing(where + ".id");
    }
    if (expr == null || expr.isBlank()) {
      throw missing(where + ".expr");
    }
    if (axis != Axis.TIME && (run == null || run.isEmpty())) {
      throw field(
          where + ".run",
          "is required when x is " + axis.name().toLowerCase(java.util.Locale.ROOT));
    }
    return new Query(id, expr, axis, axis == Axis.TIME ? null : run, aggregate);
  }

  private static Axis axis(String text, String name) {
    return switch (text) {
      case "time" -> Axis.TIME;
      case "step" -> Axis.STEP;
      case "relative" -> Axis.RELATIVE;
      default -> throw field(name, "must be time, step or relative, not " + RunsApi.quote(text));
    };
  }

  private static Aggregate aggregate(String text, String name) {
    return switch (text) {
      case "none" -> Aggregate.NONE;
      case "band" -> Aggregate.BAND;
      case "auto" -> Aggregate.AUTO;
      default -> throw field(name, "must be none, band or auto, not " + RunsApi.quote(text));
    };
  }

  private static double number(JsonParser in, JsonToken value, String name) throws IOException {
    if (value == JsonToken.VALUE_NUMBER_INT || value == JsonToken.VALUE_NUMBER_FLOAT) {
      return in.getDoubleValue();
    }
    if (value == JsonToken.VALUE_STRING) {
      try {
        return Double.parseDouble(in.getText());
      } catch (NumberFormatException e) {
        throw field(name, "must be a number of Unix seconds, not " + RunsApi.quote(in.getText()));
      }
    }
    throw field(name, "must be a number, not " + describe(value));
  }

  private static String string(JsonParser in, JsonToken value, String name) throws IOException {
    if (value != JsonToken.VALUE_STRING) {
      throw field(name, "must be a string, not " + describe(value));
    }
    return in.getText();
  }

  private static void expect(
      JsonParser in, JsonToken actual, JsonToken wanted, String name, String what) {
    if (actual != wanted) {
      throw field(name, "must be " + what + ", not " + describe(actual));
    }
  }

  private static String describe(JsonToken token) {
    if (token == null) {
      return "the end of the body";
    }
    return switch (token) {
      case START_OBJECT -> "an object";
      case START_ARRAY -> "an array";
      case VALUE_STRING -> "a string";
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
      case VALUE_TRUE, VALUE_FALSE -> "a boolean";
      case VALUE_NULL -> "null";
      default -> token.toString();
    };
  }

  private static ApiException missing(String name) {
    return field(name, "is required");
  }

  private static ApiException field(String name, String message) {
    return ApiException.badData("invalid field \"" + name + "\": " + message);
  }
}
