package io.flightdeck.dashboards;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The dashboard files under the {@code --dashboards.dir} folders, as Grafana's file provisioning
 * finds them: every {@code .json}, {@code .yaml} or {@code .yml} file, hidden ones skipped, with
 * its folder taken from the sub-folder it sits in (the provisioning folder's own name at the top).
 * Remembers each file's size and time so that a scan reports only what changed.
 */
final class ProvisionedFolders {
  private static final int MAX_DEPTH = 8;

  /** A file found by a scan, with the stamp that tells whether it changed. */
  record Found(Path path, String folder, long modified, long size) {}

  private final List<Path> roots;
  private final Map<Path, Found> known = new LinkedHashMap<>();

  ProvisionedFolders(List<Path> roots) {
    this.roots = List.copyOf(roots);
  }

  /** What a scan saw: new or changed files, and files that went away. */
  record Changes(List<Found> changed, List<Path> removed) {}

  Changes scan() {
    Map<Path, Found> now = new LinkedHashMap<>();
    for (Path root : roots) {
      if (!Files.isDirectory(root)) {
        continue;
      }
      try (Stream<Path> walk = Files.walk(root, MAX_DEPTH)) {
        for (Path path : walk.sorted().toList()) {
          if (isDashboardFile(root, path)) {
            BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
            now.put(
                path,
                new Found(
                    path,
                    folder(root, path),
                    attributes.lastModifiedTime().toMillis(),
                    attributes.size()));
          }
        }
      } catch (IOException e) {
        throw new DashboardStoreException("cannot read provisioning folder " + root, e);
      }
    }
    List<Found> changed = new ArrayList<>();
    for (Found found : now.values()) {
      Found before = known.get(found.path());
      if (before == null
          || before.modified() != found.modified()
          || before.size() != found.size()) {
        changed.add(found);
      }
    }
    List<Path> removed = known.keySet().stream().filter(p -> !now.containsKey(p)).toList();
    known.clear();
    known.putAll(now);
    return new Changes(changed, removed);
  }

  /** Records a file we wrote ourselves, so that the next scan does not read it back. */
  void wrote(Path path) {
    try {
      BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
      Found before = known.get(path);
      String folder = before == null ? "" : before.folder();
      known.put(
          path,
          new Found(path, folder, attributes.lastModifiedTime().toMillis(), attributes.size()));
    } catch (IOException e) {
      known.remove(path); // the next scan reads it again, which is harmless
    }
  }

  private static boolean isDashboardFile(Path root, Path path) {
    if (!Files.isRegularFile(path)) {
      return false;
    }
    for (Path part : root.relativize(path)) {
      if (part.toString().startsWith(".")) {
        return false;
      }
    }
    String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
    return name.endsWith(".json") || name.endsWith(".yaml") || name.endsWith(".yml");
  }

  private static String folder(Path root, Path file) {
    Path parent = root.relativize(file).getParent();
    if (parent != null) {
      return parent.toString().replace('\\', '/');
    }
    Path name = root.toAbsolutePath().normalize().getFileName();
    return name == null ? "" : name.toString();
  }
}
