package io.flightdeck.notify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What was last notified per integration and group: the firing and resolved alert fingerprints and
 * when. Kept in memory and, with a data directory, rewritten atomically after each change so that a
 * restart does not notify again (format: {@code notify/docs/notification-log.md}). Not thread-safe;
 * the notifier guards it.
 */
final class NotificationLog {
  static final String FILE_NAME = "notification-log";
  // Version 2: fingerprints are Alertmanager's (version 1 used Labels.stableHash()).
  static final String MAGIC = "flightdeck-notification-log 2";

  private static final Logger log = LoggerFactory.getLogger(NotificationLog.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  record Entry(Set<String> firing, Set<String> resolved, long timestampMs) {
    Entry {
      firing = Set.copyOf(firing);
      resolved = Set.copyOf(resolved);
    }
  }

  private final Path file;
  private final long retentionMs;
  private final Map<String, Entry> entries = new HashMap<>();

  /** A log in {@code dir}, or only in memory when {@code dir} is null. */
  NotificationLog(Path dir, long retentionMs) {
    this.file = dir == null ? null : dir.resolve(FILE_NAME);
    this.retentionMs = retentionMs;
    if (file != null && Files.exists(file)) {
      load();
    }
  }

  Entry get(String key) {
    return entries.get(key);
  }

  void put(String key, Entry entry) {
    entries.put(key, entry);
    entries.values().removeIf(e -> e.timestampMs() < entry.timestampMs() - retentionMs);
    save();
  }

  private void load() {
    try {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      if (lines.size() != 3 || !lines.get(0).equals(MAGIC)) {
        throw new IOException("not a notification log (bad header or line count)");
      }
      String body = lines.get(1);
      if (!lines.get(2).equals("crc32 " + crc(body))) {
        throw new IOException("checksum mismatch");
      }
      for (JsonNode e : JSON.readTree(body).get("entries")) {
        entries.put(
            e.get("key").asText(),
            new Entry(strings(e.get("firing")), strings(e.get("resolved")), e.get("at").asLong()));
      }
    } catch (IOException | RuntimeException e) {
      // Losing the log costs at most one repeated notification per group; never refuse to start.
      log.warn("ignoring unreadable notification log {}: {}", file, e.toString());
      entries.clear();
    }
  }

  private void save() {
    if (file == null) {
      return;
    }
    ObjectNode root = JSON.createObjectNode();
    ArrayNode array = root.putArray("entries");
    new TreeMap<>(entries)
        .forEach(
            (key, entry) -> {
              ObjectNode e = array.addObject();
              e.put("key", key);
              new TreeSet<>(entry.firing()).forEach(e.putArray("firing")::add);
              new TreeSet<>(entry.resolved()).forEach(e.putArray("resolved")::add);
              e.put("at", entry.timestampMs());
            });
    String body = root.toString();
    String text = MAGIC + "\n" + body + "\ncrc32 " + crc(body) + "\n";
    Path tmp = file.resolveSibling(FILE_NAME + ".tmp");
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      log.warn("cannot write notification log {}: {}", file, e.toString());
    }
  }

  private static Set<String> strings(JsonNode array) {
    Set<String> out = new TreeSet<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  private static String crc(String body) {
    CRC32 crc = new CRC32();
    crc.update(body.getBytes(StandardCharsets.UTF_8));
    return String.format("%08x", crc.getValue());
  }
}
