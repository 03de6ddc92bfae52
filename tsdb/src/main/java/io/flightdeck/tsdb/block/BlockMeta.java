package io.flightdeck.tsdb.block;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flightdeck.tsdb.encoding.CorruptDataException;
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
  private static final ObjectMapper JSON = new ObjectMapper();

  public boolean overlaps(long mint, long maxtInclusive) {
    return minTime <= maxtInclusive && maxTime > mint;
  }

  void write(Path dir) throws IOException {
    Files.write(dir.resolve(FILE), JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(json()));
  }

  private ObjectNode json() {
    ObjectNode root = JSON.createObjectNode();
    root.put("ulid", ulid);
    root.put("minTime", minTime);
    root.put("maxTime", maxTime);
    ObjectNode stats = root.putObject("stats");
    stats.put("numSamples", numSamples);
    stats.put("numSeries", numSeries);
    stats.put("numChunks", numChunks);
    ObjectNode compaction = root.putObject("compaction");
    compaction.put("level", level);
    sources.forEach(compaction.putArray("sources")::add);
    root.put("version", VERSION);
    return root;
  }

  /**
   * Sets up this class's JSON mapper (about 0.1 s of CPU) ahead of need, and has it write and read
   * a meta file's shape once: the first of each took a block writer 10 to 20 ms more.
   */
  static void preload() {
    try {
      BlockMeta meta = new BlockMeta("preload", 0, 1, 0, 0, 0, 1, List.of("preload"));
      JSON.readTree(JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(meta.json()));
    } catch (IOException e) {
      throw new UncheckedIOException("a meta file in memory cannot fail to round-trip", e);
    }
  }

  public static BlockMeta read(Path dir) throws IOException {
    Path file = dir.resolve(FILE);
    JsonNode root;
    try {
      root = JSON.readTree(file.toFile());
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new CorruptDataException("unreadable " + file + ": " + e.getOriginalMessage(), e);
    }
    if (root == null || root.path("version").asInt() != VERSION || !root.hasNonNull("ulid")) {
      throw new CorruptDataException("unsupported or incomplete " + file);
    }
    List<String> sources = new ArrayList<>();
    root.path("compaction").path("sources").forEach(n -> sources.add(n.asText()));
    JsonNode stats = root.path("stats");
    return new BlockMeta(
        root.get("ulid").asText(),
        root.path("minTime").asLong(),
        root.path("maxTime").asLong(),
        stats.path("numSamples").asLong(),
        stats.path("numSeries").asLong(),
        stats.path("numChunks").asLong(),
        root.path("compaction").path("level").asInt(1),
        sources);
  }
}
