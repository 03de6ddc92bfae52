package io.flightdeck.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;

/** Reads a request's JSON body; a missing or malformed one is a 400 naming line and column. */
final class JsonBodies {
  private static final JsonFactory JSON = new JsonFactory();

  /** Reads one document from a parser positioned before its first token. */
  @FunctionalInterface
  interface Reader<T> {
    T read(JsonParser in) throws IOException;
  }

  private JsonBodies() {}

  static <T> T parse(byte[] body, Reader<T> reader) {
    if (body.length == 0) {
      throw ApiException.badData("the request has no JSON body");
    }
    try (JsonParser in = JSON.createParser(body)) {
      return reader.read(in);
    } catch (JsonParseException e) {
      throw ApiException.badData(
          "invalid JSON body at line "
              + e.getLocation().getLineNr()
              + ", column "
              + e.getLocation().getColumnNr()
              + ": "
              + e.getOriginalMessage());
    } catch (IOException e) {
      throw ApiException.badData("invalid JSON body: " + e.getMessage());
    }
  }
}
