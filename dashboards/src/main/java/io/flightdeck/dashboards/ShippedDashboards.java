package io.flightdeck.dashboards;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The dashboards Flightdeck ships (resources of this module): dcgm-exporter's official one,
 * unchanged, the LLM-training one and the GPU-cluster one. Each is added to the store once; a
 * marker file remembers which, so that one a user deleted does not come back. When a newer
 * Flightdeck ships a changed file, it replaces the stored dashboard, as a new version, only while
 * nobody edited it: its latest version is still authored by {@value #AUTHOR} (every save through
 * the API or the cockpit, a restore included, carries another author), so a user's edits are kept.
 */
public final class ShippedDashboards {
  /** Resource names under {@code io/flightdeck/dashboards/shipped/}. */
  public static final List<String> FILES =
      List.of("dcgm-exporter-dashboard.json", "llm-training.json", "gpu-cluster.json");

  private static final String MARKER = ".shipped";
  static final String AUTHOR = "flightdeck";

  private ShippedDashboards() {}

  /** The bytes of one shipped dashboard. */
  public static byte[] read(String file) {
    try (InputStream in = ShippedDashboards.class.getResourceAsStream("shipped/" + file)) {
      if (in == null) {
        throw new IllegalStateException("shipped dashboard " + file + " missing from the jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read shipped dashboard " + file, e);
    }
  }

  static void addMissing(DashboardStore store, Path dir) throws IOException {
    Path marker = dir.resolve(MARKER);
    List<String> added =
        Files.exists(marker)
            ? new ArrayList<>(Files.readAllLines(marker, StandardCharsets.UTF_8))
            : new ArrayList<>();
    boolean changed = false;
    for (String file : FILES) {
      Dashboard dashboard = DashboardImporter.importDocument(read(file)).dashboard();
      Optional<StoredDashboard> stored = store.get(dashboard.uid());
      if (added.contains(dashboard.uid())) {
        stored
            .filter(s -> neverEdited(s) && !s.dashboard().equals(dashboard))
            .ifPresent(s -> store.save(dashboard, s.folder(), AUTHOR, "updated with Flightdeck"));
        continue;
      }
      if (stored.isEmpty()) {
        store.save(dashboard, DashboardStore.SHIPPED_FOLDER, AUTHOR, "shipped with Flightdeck");
      }
      added.add(dashboard.uid());
      changed = true;
    }
    if (changed) {
      AtomicFiles.write(marker, (String.join("\n", added) + "\n").getBytes(StandardCharsets.UTF_8));
    }
  }

  private static boolean neverEdited(StoredDashboard stored) {
    return !stored.provisioned() && AUTHOR.equals(stored.latest().author());
  }
}
