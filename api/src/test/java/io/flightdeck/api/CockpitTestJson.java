package io.flightdeck.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads a response body into maps, lists, strings, doubles, booleans and nulls for assertions. */
final class CockpitTestJson {
  private CockpitTestJson() {}

  static Object parse(String json) {
    try (JsonParser in = new JsonFactory().createParser(json)) {
      return value(in, in.nextToken());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> object(Object value) {
    return (Map<String, Object>) value;
  }

  @SuppressWarnings("unchecked")
  static List<Object> list(Object value) {
    return (List<Object>) value;
  }

  /** The {@code data} of a success envelope. */
  static Object data(FakeExchange exchange) {
    Map<String, Object> envelope = object(parse(exchange.body));
    if (!"success".equals(envelope.get("status"))) {
      throw new AssertionError("not a success: " + exchange.body);
    }
    return envelope.get("data");
  }

  private static Object value(JsonParser in, JsonToken token) throws IOException {
    switch (token) {
      case START_OBJECT -> {
        Map<String, Object> map = new LinkedHashMap<>();
        while (in.nextToken() == JsonToken.FIELD_NAME) {
          String name = in.currentName();
          map.put(name, value(in, in.nextToken()));
        }
        return map;
      }
      case START_ARRAY -> {
        List<Object> list = new ArrayList<>();
        JsonToken next;
        while ((next = in.nextToken()) != JsonToken.END_ARRAY) {
          list.add(value(in, next));
        }
        return list;
      }
      case VALUE_STRING -> {
        return in.getText();
      }
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
        return in.getDoubleValue();
      }
      case VALUE_TRUE, VALUE_FALSE -> {
        return in.getBooleanValue();
      }
      case VALUE_NULL -> {
        return null;
      }
      default -> throw new IllegalStateException("unexpected " + token);
    }
  }
}
