package io.flightdeck.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.flightdeck.promql.engine.MatrixValue;
import io.flightdeck.promql.engine.QueryStats;
import io.flightdeck.promql.engine.QueryValue;
import io.flightdeck.promql.engine.RangeSeries;
import io.flightdeck.promql.engine.Sample;
import io.flightdeck.promql.engine.ScalarValue;
import io.flightdeck.promql.engine.StringValue;
import io.flightdeck.promql.engine.VectorValue;
import java.io.IOException;

/**
 * The {@code data} of a query response, laid out as Prometheus does: vector and matrix points
 * through its own encoder (timestamps with three decimals, values in {@code MarshalFloat} form),
 * scalars and strings through Go's {@code encoding/json} (timestamps as plain float64).
 */
final class QueryJson {
  /** {@code [1796120310.500,"2.3456788063049316"],} is 37; a whole-second integer point is 20. */
  private static final int TYPICAL_POINT_BYTES = 32;

  private QueryJson() {}

  /** {@code {"resultType":...,"result":...}}, with {@code stats} when asked for. */
  static void data(JsonGenerator out, QueryValue value, QueryStats stats) throws IOException {
    data(out, value, stats, () -> {});
  }

  /**
   * As {@link #data(JsonGenerator, QueryValue, QueryStats)}, calling {@code check} now and then: a
   * result of many series is written within the request's time, or not at all.
   */
  static void data(JsonGenerator out, QueryValue value, QueryStats stats, Runnable check)
      throws IOException {
    out.writeStartObject();
    out.writeStringField("resultType", value.resultType());
    out.writeFieldName("result");
    result(out, value, check);
    if (stats != null) {
      out.writeFieldName("stats");
      stats(out, stats);
    }
    out.writeEndObject();
  }

  private static void result(JsonGenerator out, QueryValue value, Runnable check)
      throws IOException {
    switch (value) {
      case VectorValue vector -> {
        out.writeStartArray();
        int written = 0;
        for (Sample sample : vector.samples()) {
          if (++written % 256 == 0) {
            check.run();
          }
          out.writeStartObject();
          out.writeFieldName("metric");
          ApiJson.labels(out, sample.labels());
          out.writeFieldName("value");
          point(out, sample.timestamp(), sample.value());
          out.writeEndObject();
        }
        out.writeEndArray();
      }
      case MatrixValue matrix -> {
        out.writeStartArray();
        for (RangeSeries series : matrix.series()) {
          check.run(); // a series has at most 11,000 points
          out.writeStartObject();
          out.writeFieldName("metric");
          ApiJson.labels(out, series.labels());
          if (series.size() > 0) { // Prometheus omits an empty "values"
            out.writeFieldName("values");
            points(out, series);
          }
          out.writeEndObject();
        }
        out.writeEndArray();
      }
      case ScalarValue scalar -> {
        out.writeStartArray();
        out.writeNumber(GoFloats.jsonNumber(scalar.timestamp() / 1000.0));
        out.writeString(GoFloats.plain(scalar.value()));
        out.writeEndArray();
      }
      case StringValue string -> {
        out.writeStartArray();
        out.writeNumber(GoFloats.jsonNumber(string.timestamp() / 1000.0));
        out.writeString(string.value());
        out.writeEndArray();
      }
    }
  }

  /**
   * {@code [timestamp,"value"]} laid out directly in the response: both parts are digits, signs and
   * letters that need no escaping, and a large vector has one of these per sample.
   */
  private static void point(JsonGenerator out, long timestamp, double value) throws IOException {
    ApiJson.rawValue(out, bytes -> appendPoint(bytes, timestamp, value));
  }

  /**
   * A series' whole {@code values} array laid out directly in the response, for the same reason: a
   * 6-hour panel has thousands of points per series, and one generator call per point cost more
   * than the digits.
   */
  private static void points(JsonGenerator out, RangeSeries series) throws IOException {
    ApiJson.rawValue(
        out,
        bytes -> {
          long[] timestamps = series.timestamps();
          double[] values = series.values();
          bytes.reserve(series.size() * TYPICAL_POINT_BYTES + 2);
          bytes.append('[');
          for (int i = 0; i < series.size(); i++) {
            if (i > 0) {
              bytes.append(',');
            }
            appendPoint(bytes, timestamps[i], values[i]);
          }
          bytes.append(']');
        });
  }

  private static void appendPoint(ResponseBytes bytes, long timestamp, double value) {
    bytes.append('[');
    ApiJson.appendTimestamp(bytes, timestamp);
    bytes.append(",\"");
    GoFloats.appendSampleValue(bytes, value);
    bytes.append("\"]");
  }

  /**
   * Prometheus's {@code stats} object. Time spent preparing and sorting is part of evaluation here,
   * so those timings are 0 and the inner evaluation time equals the total.
   */
  private static void stats(JsonGenerator out, QueryStats stats) throws IOException {
    out.writeStartObject();
    out.writeFieldName("timings");
    out.writeStartObject();
    seconds(out, "evalTotalTime", stats.evalTotalTimeSeconds());
    seconds(out, "resultSortTime", 0);
    seconds(out, "queryPreparationTime", 0);
    seconds(out, "innerEvalTime", stats.evalTotalTimeSeconds());
    seconds(out, "execQueueTime", stats.execQueueTimeSeconds());
    seconds(out, "execTotalTime", stats.execQueueTimeSeconds() + stats.evalTotalTimeSeconds());
    out.writeEndObject();
    out.writeFieldName("samples");
    out.writeStartObject();
    out.writeNumberField("totalQueryableSamples", stats.totalQueryableSamples());
    out.writeNumberField("peakSamples", stats.peakSamples());
    out.writeEndObject();
    out.writeEndObject();
  }

  private static void seconds(JsonGenerator out, String field, double value) throws IOException {
    out.writeFieldName(field);
    out.writeNumber(GoFloats.jsonNumber(value));
  }
}
