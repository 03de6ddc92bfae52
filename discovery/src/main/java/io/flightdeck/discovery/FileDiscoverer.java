package io.flightdeck.discovery;

import io.flightdeck.config.FileSdConfig;
import io.flightdeck.model.Labels;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code file_sd_configs}: JSON ({@code .json}) and YAML ({@code .yml}, {@code .yaml}) files, the
 * last path element possibly a glob. Re-read on the refresh interval and as soon as a matching file
 * appears, disappears or is modified. One bad file fails the whole refresh, keeping the last good
 * groups, as Prometheus does.
 */
final class FileDiscoverer extends PollingDiscoverer {
  static final String META_FILEPATH = "__meta_filepath";

  private final List<Path> patterns;
  private Map<Path, String> seen = Map.of();

  FileDiscoverer(String name, FileSdConfig config, Duration watchInterval) {
    super(name, config.refreshInterval(), watchInterval);
    this.patterns = config.files();
  }

  @Override
  List<TargetGroup> read() throws IOException, DiscoveryException {
    Map<Path, String> stamps = stamps();
    List<TargetGroup> groups = new ArrayList<>();
    for (Path file : stamps.keySet()) {
      String text;
      try {
        text = Files.readString(file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new DiscoveryException("cannot read " + file + ": " + e.getMessage(), e);
      }
      String source = file.toString();
      Labels meta = Labels.of(META_FILEPATH, source);
      String lower = source.toLowerCase(Locale.ROOT);
      groups.addAll(
          lower.endsWith(".json")
              ? TargetGroupDecoder.json(text, source, meta)
              : TargetGroupDecoder.yaml(text, source, meta));
    }
    seen = stamps;
    return groups;
  }

  @Override
  boolean changed() {
    try {
      return !stamps().equals(seen);
    } catch (IOException e) {
      return true; // let the refresh report it
    }
  }

  /** Every matching file with its modification time and size, sorted by path. */
  private Map<Path, String> stamps() throws IOException {
    Map<Path, String> stamps = new TreeMap<>();
    for (Path pattern : patterns) {
      for (Path file : matches(pattern)) {
        try {
          stamps.put(file, Files.getLastModifiedTime(file).toMillis() + "/" + Files.size(file));
        } catch (IOException e) {
          // deleted between listing and reading: it simply is not there
        }
      }
    }
    return stamps;
  }

  private static List<Path> matches(Path pattern) throws IOException {
    Path dir = pattern.getParent() == null ? Path.of(".") : pattern.getParent();
    String glob = pattern.getFileName().toString();
    List<Path> files = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return files;
    }
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, glob)) {
      for (Path file : stream) {
        String lower = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (Files.isRegularFile(file)
            && (lower.endsWith(".json") || lower.endsWith(".yml") || lower.endsWith(".yaml"))) {
          files.add(file);
        }
      }
    }
    return files;
  }
}
