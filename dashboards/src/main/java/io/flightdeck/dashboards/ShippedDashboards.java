package io.flightdeck.dashboards;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The dashboards Flightdeck ships (resources of this module): dcgm-exporter's official one,
 * unchanged, the LLM-training one and the GPU-cluster one. Each is added to the store once; a
 * marker file remembers which, so that one a user deleted does not come back.
 */
public final class ShippedDashboards {
  /** Resource names under {@code io/flightdeck/dashboards/shipped/}. */
  public static final List<String> FILES =
      List.of("dcgm-exporter-dashboard.json", "llm-training.json", "gpu-cluster.json");

  private static final String MARKER = ".shipped";

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
      if (added.contains(dashboard.uid())) {
        continue;
      }
      if (store.get(dashboard.uid()).isEmpty()) {
        store.save(
            dashboard, DashboardStore.SHIPPED_FOLDER, "flightdeck", "shipped with Flightdeck");
      }
      added.add(dashboard.uid());
      changed = true;
    }
    if (changed) {
      AtomicFiles.write(marker, (String.join("\n", added) + "\n").getBytes(StandardCharsets.UTF_8));
    }
  }
}
