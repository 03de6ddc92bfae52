package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The data directory's layout: {@code <dir>/<uid>/v<number>.json} per version, each holding the
 * version's metadata and the whole dashboard in the model's JSON. The newest number is the current
 * dashboard; a version file is written whole (renamed into place) and never changed.
 */
final class VersionFiles {
  private static final ObjectMapper MAPPER = JsonMapper.builder().build();

  private final Path dir;

  VersionFiles(Path dir) {
    this.dir = dir;
  }

  List<String> uids() throws IOException {
    List<String> out = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (Files.isDirectory(entry)
            && DashboardImporter.UID.matcher(name).matches()
            && !numbers(name).isEmpty()) {
          out.add(name);
        }
      }
    }
    out.sort(null);
    return out;
  }

  List<Integer> numbers(String uid) throws IOException {
    Path folder = dir.resolve(uid);
    List<Integer> out = new ArrayList<>();
    if (!Files.isDirectory(folder)) {
      return out;
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder, "v*.json")) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        try {
          out.add(Integer.parseInt(name.substring(1, name.length() - ".json".length())));
        } catch (NumberFormatException e) {
          // not a version file
        }
      }
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  record Entry(DashboardVersion version, Dashboard dashboard) {}

  Optional<Entry> read(String uid, int number) throws IOException {
    Path file = dir.resolve(uid).resolve("v" + number + ".json");
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    JsonNode tree = MAPPER.readTree(file.toFile());
    List<String> diff = new ArrayList<>();
    tree.path("diff").forEach(line -> diff.add(line.asText()));
    DashboardVersion version =
        new DashboardVersion(
            tree.path("version").asInt(),
            Instant.parse(tree.path("created").asText()),
            tree.path("author").asText(""),
            tree.path("message").asText(""),
            tree.path("folder").asText(""),
            diff);
    return Optional.of(new Entry(version, ModelJson.read(tree.path("dashboard"))));
  }

  void write(String uid, DashboardVersion version, Dashboard dashboard) throws IOException {
    ObjectNode tree = Json.NODES.objectNode();
    tree.put("version", version.version());
    tree.put("created", version.created().toString());
    tree.put("author", version.author());
    tree.put("message", version.message());
    tree.put("folder", version.folder());
    ArrayNode diff = tree.putArray("diff");
    version.diff().forEach(diff::add);
    tree.set("dashboard", ModelJson.write(dashboard));
    AtomicFiles.write(
        dir.resolve(uid).resolve("v" + version.version() + ".json"), StableJson.write(tree));
  }

  /** Removes a dashboard and its history: renamed aside first, so it vanishes at once. */
  void delete(String uid) throws IOException {
    Path folder = dir.resolve(uid);
    if (!Files.exists(folder)) {
      return;
    }
    Path aside = dir.resolve(".deleted-" + uid + "-" + System.nanoTime());
    Files.move(folder, aside);
    try (Stream<Path> walk = Files.walk(aside)) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
