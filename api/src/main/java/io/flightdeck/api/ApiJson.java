package io.flightdeck.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import io.flightdeck.model.Labels;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;

/** Writes the API's JSON: the envelope, and the pieces every endpoint shares. */
final class ApiJson {
  static final String CONTENT_TYPE = "application/json";

  /**
   * Jackson refuses to write more than 1,000 nested values by default, which a deep but valid
   * query's {@code parse_query} tree exceeds; the parser's own nesting limit bounds the depth.
   */
  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .streamWriteConstraints(StreamWriteConstraints.builder().maxNestingDepth(5_000).build())
          .build()
          .setCharacterEscapes(new GoJsonEscapes());

  /** Writes one JSON value. */
  @FunctionalInterface
  interface Value {
    void write(JsonGenerator out) throws IOException;
  }

  /** Appends one JSON value's bytes, already laid out, to the response. */
  @FunctionalInterface
  interface RawValue {
    void write(ResponseBytes out);
  }

  private ApiJson() {}

  /** {@code {"status":"success","data":...}} with {@code warnings} and {@code infos} if any. */
  static byte[] success(Value data, List<String> warnings, List<String> infos) {
    return render(
        out -> {
          out.writeStartObject();
          out.writeStringField("status", "success");
          out.writeFieldName("data");
          data.write(out);
          stringsIfAny(out, "warnings", warnings);
          stringsIfAny(out, "infos", infos);
          out.writeEndObject();
        });
  }

  static byte[] success(Value data) {
    return success(data, List.of(), List.of());
  }

  /** {@code {"status":"error","errorType":...,"error":...}}. */
  static byte[] error(ErrorType type, String message) {
    return render(
        out -> {
          out.writeStartObject();
          out.writeStringField("status", "error");
          out.writeStringField("errorType", type.wireName());
          out.writeStringField("error", message);
          out.writeEndObject();
        });
  }

  static byte[] render(Value value) {
    ResponseBytes bytes = new ResponseBytes(256);
    try (JsonGenerator out = FACTORY.createGenerator(bytes)) {
      value.write(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return bytes.toByteArray();
  }

  /**
   * Writes a value whose bytes the caller lays out itself, straight into the response of {@link
   * #render}: the generator writes the separator before it, then its pending bytes are flushed so
   * that the value's bytes follow them.
   */
  static void rawValue(JsonGenerator out, RawValue value) throws IOException {
    out.writeRawValue("");
    out.flush();
    value.write((ResponseBytes) out.getOutputTarget());
  }

  /**
   * Milliseconds as seconds with up to three decimals, trailing zeros kept ({@code 1.500}): the
   * layout of Prometheus's sample timestamps.
   */
  static void timestamp(JsonGenerator out, long ms) throws IOException {
    rawValue(out, bytes -> appendTimestamp(bytes, ms));
  }

  /** Appends {@code ms} in the layout of {@link #timestamp(JsonGenerator, long)}. */
  static void appendTimestamp(ResponseBytes out, long ms) {
    long abs = ms;
    if (ms < 0) {
      out.append('-');
      abs = -ms; // Long.MIN_VALUE is not a timestamp anyone queries
    }
    out.append(abs / 1000);
    long fraction = abs % 1000;
    if (fraction != 0) {
      out.append('.');
      if (fraction < 100) {
        out.append('0');
      }
      if (fraction < 10) {
        out.append('0');
      }
      out.append(fraction);
    }
  }

  /** A label set as a JSON object, in the set's (sorted) order. */
  static void labels(JsonGenerator out, Labels labels) throws IOException {
    out.writeStartObject();
    for (int i = 0; i < labels.size(); i++) {
      out.writeStringField(labels.name(i), labels.value(i));
    }
    out.writeEndObject();
  }

  static void strings(JsonGenerator out, List<String> values) throws IOException {
    out.writeStartArray();
    for (String value : values) {
      out.writeString(value);
    }
    out.writeEndArray();
  }

  /** A time as Go's {@code time.Time} marshals: RFC 3339 in UTC, fraction without zeros. */
  static String goTime(Instant time) {
    String text = time.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
    int nanos = time.getNano();
    if (nanos == 0) {
      return text;
    }
    String fraction = String.format("%09d", nanos).replaceFirst("0+$", "");
    return text.substring(0, text.length() - 1) + "." + fraction + "Z";
  }

  private static void stringsIfAny(JsonGenerator out, String field, List<String> values)
      throws IOException {
    if (!values.isEmpty()) {
      out.writeFieldName(field);
      strings(out, values);
    }
  }
}
