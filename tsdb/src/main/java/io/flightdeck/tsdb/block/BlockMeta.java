package io.flightdeck.tsdb.block;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.flightdeck.tsdb.encoding.CorruptDataException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A block's {@code meta.json}: its id, time range [minTime, maxTime) in ms, sizes, and how it was
 * made (compaction level and the blocks it replaced).
 */
public record BlockMeta(
    String ulid,
    long minTime,
    long maxTime,
    long numSamples,
    long numSeries,
    long numChunks,
    int level,
    List<String> sources) {
  public static final String FILE = "meta.json";
  static final int VERSION = 1;

  /**
   * Jackson's streaming reader and writer: the file is eight fields. Its object mapper took 75 ms
   * of CPU to set up (date formats, locale data, type tables) at the start of every command that
   * writes or reads blocks.
   */
  private static final JsonFactory JSON = new JsonFactory();

  public boolean overlaps(long mint, long maxtInclusive) {
    return minTime <= maxtInclusive && maxTime > mint;
  }

  void write(Path dir) throws IOException {
    Files.write(dir.resolve(FILE), bytes());
  }

  private byte[] bytes() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator json = JSON.createGenerator(out).useDefaultPrettyPrinter()) {
      json.writeStartObject();
      json.writeStringField("ulid", ulid);
      json.writeNumberField("minTime", minTime);
      json.writeNumberField("maxTime", maxTime);
      json.writeObjectFieldStart("stats");
      json.writeNumberField("numSamples", numSamples);
      json.writeNumberField("numSeries", numSeries);
      json.writeNumberField("numChunks", numChunks);
      json.writeEndObject();
      json.writeObjectFieldStart("compaction");
      json.writeNumberField("level", level);
      json.writeArrayFieldStart("sources");
      for (String source : sources) {
        json.writeString(source);
      }
      json.writeEndArray();
      json.writeEndObject();
      json.writeNumberField("version", VERSION);
      json.writeEndObject();
    }
    return out.toByteArray();
  }

  /**
   * Sets up the JSON reader and writer ahead of need, and has them write and read a meta file's
   * shape once: the first of each took a block writer 10 to 20 ms more.
   */
  static void preload() {
    try {
      BlockMeta meta = new BlockMeta("preload", 0, 1, 0, 0, 0, 1, List.of("preload"));
      try (JsonParser json = JSON.createParser(meta.bytes())) {
        parse(json, Path.of(FILE));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("a meta file in memory cannot fail to round-trip", e);
    }
  }

  public static BlockMeta read(Path dir) throws IOException {
    Path file = dir.resolve(FILE);
    try (JsonParser json = JSON.createParser(file.toFile())) {
      return parse(json, file);
    } catch (JsonProcessingException e) {
      throw new CorruptDataException("unreadable " + file + ": " + e.getOriginalMessage(), e);
    }
  }

  /**
   * Reads the meta file's object. Fields may come in any order, unknown ones are skipped, a number
   * given as text is read as its number and a missing one as 0 (a missing level as 1), as the tree
   * reader this replaces did.
   */
  private static BlockMeta parse(JsonParser json, Path file) throws IOException {
    if (json.nextToken() != JsonToken.START_OBJECT) {
      throw new CorruptDataException("unsupported or incomplete " + file);
    }
    String ulid = null;
    long minTime = 0;
    long maxTime = 0;
    long[] stats = new long[3];
    int level = 1;
    int version = 0;
    List<String> sources = new ArrayList<>();
    while (json.nextToken() == JsonToken.FIELD_NAME) {
      String field = json.currentName();
      JsonToken value = json.nextToken();
      switch (field) {
        case "ulid" -> ulid = value == JsonToken.VALUE_NULL ? null : text(json);
        case "minTime" -> minTime = json.getValueAsLong();
        case "maxTime" -> maxTime = json.getValueAsLong();
        case "version" -> version = json.getValueAsInt();
        case "stats" -> readStats(json, stats);
        case "compaction" -> level = readCompaction(json, sources);
        default -> json.skipChildren();
      }
    }
    if (version != VERSION || ulid == null) {
      throw new CorruptDataException("unsupported or incomplete " + file);
    }
    return new BlockMeta(ulid, minTime, maxTime, stats[0], stats[1], stats[2], level, sources);
  }

  /** Reads {@code stats} into numSamples, numSeries and numChunks, in that order. */
  private static void readStats(JsonParser json, long[] stats) throws IOException {
    if (json.currentToken() != JsonToken.START_OBJECT) {
      json.skipChildren();
      return;
    }
    while (json.nextToken() == JsonToken.FIELD_NAME) {
      String field = json.currentName();
      json.nextToken();
      switch (field) {
        case "numSamples" -> stats[0] = json.getValueAsLong();
        case "numSeries" -> stats[1] = json.getValueAsLong();
        case "numChunks" -> stats[2] = json.getValueAsLong();
        default -> json.skipChildren();
      }
    }
  }

  /** Reads {@code compaction}'s sources into {@code sources}; returns its level (1 if absent). */
  private static int readCompaction(JsonParser json, List<String> sources) throws IOException {
    int level = 1;
    if (json.currentToken() != JsonToken.START_OBJECT) {
      json.skipChildren();
      return level;
    }
    while (json.nextToken() == JsonToken.FIELD_NAME) {
      String field = json.currentName();
      JsonToken value = json.nextToken();
      if (field.equals("level")) {
        level = json.getValueAsInt(1);
      } else if (field.equals("sources") && value == JsonToken.START_ARRAY) {
        while (json.nextToken() != JsonToken.END_ARRAY) {
          sources.add(text(json));
        }
      } else {
        json.skipChildren();
      }
    }
    return level;
  }

  /**
   * A value as text: a string's characters, a number's or literal's spelling, "" for a container.
   */
  private static String text(JsonParser json) throws IOException {
    JsonToken token = json.currentToken();
    if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
      json.skipChildren();
      return "";
    }
    return json.getText();
  }
}
