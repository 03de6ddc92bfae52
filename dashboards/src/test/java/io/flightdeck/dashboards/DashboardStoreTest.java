package io.flightdeck.dashboards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.testkit.ManualClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store on a real directory: versions, restore, delete, shipped and provisioned dashboards. */
class DashboardStoreTest {
  @TempDir Path temp;

  private final ManualClock clock = new ManualClock(1_700_000_000_000L);

  private DashboardStore open(Path... provisioning) {
    return DashboardStore.open(temp.resolve("data"), List.of(provisioning), clock);
  }

  private static Dashboard dcgm() throws Exception {
    return DashboardImporter.importDocument(DcgmDashboardTest.fixture()).dashboard();
  }

  private static Dashboard retitled(Dashboard d, String title) {
    return new Dashboard(
        d.uid(),
        title,
        d.description(),
        d.tags(),
        d.time(),
        d.panels(),
        d.layout(),
        d.variables(),
        d.annotations(),
        d.links());
  }

  @Test
  void theShippedDashboardsAreAddedOnceAndImportCleanly() throws Exception {
    try (DashboardStore store = open()) {
      assertThat(store.list())
          .extracting(s -> s.dashboard().uid())
          .containsExactlyInAnyOrder(
              "Oxed_c6Wz", "flightdeck-llm-training", "flightdeck-gpu-cluster");
      assertThat(store.list()).allSatisfy(s -> assertThat(s.folder()).isEqualTo("Flightdeck"));
      store.delete("flightdeck-gpu-cluster");
    }
    try (DashboardStore store = open()) {
      // A shipped dashboard the user deleted does not come back.
      assertThat(store.get("flightdeck-gpu-cluster")).isEmpty();
      assertThat(store.get("flightdeck-llm-training")).isPresent();
    }
    for (String file : ShippedDashboards.FILES) {
      ImportResult result = DashboardImporter.importDocument(ShippedDashboards.read(file));
      assertThat(result.report().unsupported()).as(file).isEmpty();
      assertThat(result.report().counts()).as(file).noneMatch(ImportReport.Count::lost);
    }
    assertThat(ShippedDashboards.read("dcgm-exporter-dashboard.json"))
        .isEqualTo(DcgmDashboardTest.fixture());
  }

  @Test
  void theTrainingDashboardHasTheFiveRegionsAndItsVariables() {
    Dashboard training =
        DashboardImporter.importDocument(ShippedDashboards.read("llm-training.json")).dashboard();
    assertThat(training.layout())
        .extracting(LayoutSection::title)
        .containsExactly(
            "GPU state", "Training progress", "Performance curves", "System resources", "Network");
    assertThat(training.variables())
        .extracting(Variable::name)
        .containsExactly("run", "node", "gpu");
    assertThat(VariableGraph.dependencies(training.variables().get(1), training.variables()))
        .containsExactly("run");
    assertThat(VariableGraph.dependencies(training.variables().get(2), training.variables()))
        .containsExactly("node");
    // Samples/s and network receive share a chart, the bytes on their own (right) axis.
    Panel network =
        training.panels().values().stream()
            .filter(p -> p.title().startsWith("Samples per second against"))
            .findFirst()
            .orElseThrow();
    assertThat(network.fieldConfig().at("/overrides/0/properties/0/value").asText())
        .isEqualTo("right");
  }

  @Test
  void aChangedShippedDashboardReplacesTheStoredOneOnlyWhenNobodyEditedIt() throws Exception {
    Dashboard shipped =
        DashboardImporter.importDocument(ShippedDashboards.read("llm-training.json")).dashboard();
    Dashboard cluster =
        DashboardImporter.importDocument(ShippedDashboards.read("gpu-cluster.json")).dashboard();
    try (DashboardStore store = open()) {
      // As an older Flightdeck shipped them: other titles, saved by Flightdeck itself.
      store.save(retitled(shipped, "LLM training (old)"), "Flightdeck", "flightdeck", "old");
      store.save(retitled(cluster, "GPU cluster (old)"), "Flightdeck", "flightdeck", "old");
      // The user edits the cluster dashboard afterwards.
      store.save(retitled(cluster, "Our GPUs"), "Flightdeck", "ana", "ours");
    }
    try (DashboardStore store = open()) {
      StoredDashboard training = store.get("flightdeck-llm-training").orElseThrow();
      assertThat(training.dashboard()).isEqualTo(shipped);
      assertThat(training.latest().version()).isEqualTo(3);
      assertThat(training.latest().message()).isEqualTo("updated with Flightdeck");
      assertThat(training.latest().diff())
          .contains("changed $.title: \"LLM training (old)\" → \"LLM training\"");
      StoredDashboard ours = store.get("flightdeck-gpu-cluster").orElseThrow();
      assertThat(ours.dashboard().title()).isEqualTo("Our GPUs");
      assertThat(ours.latest().author()).isEqualTo("ana");
    }
    try (DashboardStore store = open()) {
      // Nothing changed since: no new version.
      assertThat(store.get("flightdeck-llm-training").orElseThrow().latest().version())
          .isEqualTo(3);
    }
  }

  @Test
  void everySaveIsAVersionWithWhoWhenAndADiff() throws Exception {
    try (DashboardStore store = open()) {
      Dashboard first = dcgm().withUid("gpus");
      StoredDashboard v1 = store.save(first, "Team", "ana", "first");
      assertThat(v1.latest().version()).isEqualTo(1);
      assertThat(v1.latest().diff()).containsExactly("created");

      clock.advance(java.time.Duration.ofMinutes(5));
      StoredDashboard v2 = store.save(retitled(first, "GPUs of team A"), "Team", "bo", "rename");
      assertThat(v2.latest().version()).isEqualTo(2);
      assertThat(v2.latest().author()).isEqualTo("bo");
      assertThat(v2.latest().created()).isEqualTo(java.time.Instant.ofEpochMilli(clock.millis()));
      assertThat(v2.latest().diff())
          .containsExactly(
              "changed $.title: \"NVIDIA DCGM Exporter Dashboard\" → \"GPUs of team A\"");

      // Saving what is current changes nothing.
      assertThat(
              store
                  .save(retitled(first, "GPUs of team A"), "Team", "bo", "again")
                  .latest()
                  .version())
          .isEqualTo(2);

      StoredDashboard v3 = store.restore("gpus", 1, "cy");
      assertThat(v3.latest().version()).isEqualTo(3);
      assertThat(v3.latest().message()).isEqualTo("restored version 1");
      assertThat(v3.dashboard()).isEqualTo(first);
      assertThat(store.versions("gpus"))
          .extracting(DashboardVersion::version)
          .containsExactly(3, 2, 1);
    }
    try (DashboardStore reopened = open()) {
      assertThat(reopened.get("gpus").orElseThrow().latest().version()).isEqualTo(3);
      assertThat(reopened.version("gpus", 2).title()).isEqualTo("GPUs of team A");
      reopened.delete("gpus");
      assertThat(reopened.get("gpus")).isEmpty();
      assertThatThrownBy(() -> reopened.versions("gpus")).hasMessageContaining("not found");
    }
    assertThat(temp.resolve("data/gpus")).doesNotExist();
  }

  @Test
  void aDashboardWithoutUidGetsOneFromItsTitle() throws Exception {
    try (DashboardStore store = open()) {
      StoredDashboard a = store.save(dcgm().withUid(""), "", "ana", "");
      StoredDashboard b = store.save(dcgm().withUid(""), "", "ana", "");
      assertThat(a.dashboard().uid()).isEqualTo("nvidia-dcgm-exporter-dashboard");
      assertThat(b.dashboard().uid()).isEqualTo("nvidia-dcgm-exporter-dashboard-2");
    }
  }

  @Test
  void provisionedFilesLoadAtStartChangeAndWriteBackSorted() throws Exception {
    Path dir = Files.createDirectories(temp.resolve("provisioning/gpu"));
    Path file = dir.resolve("dcgm.json");
    Files.write(file, DcgmDashboardTest.fixture());
    Files.writeString(dir.resolve("broken.json"), "{\"schemaVersion\": 30, \"panels\": 3}");
    try (DashboardStore store = open(temp.resolve("provisioning"))) {
      StoredDashboard loaded = store.get("Oxed_c6Wz").orElseThrow();
      assertThat(loaded.provisioned()).isTrue();
      assertThat(loaded.folder()).isEqualTo("gpu");
      assertThat(loaded.latest().author()).isEqualTo("provisioning");
      assertThat(store.provisioningErrors().get(dir.resolve("broken.json")))
          .isEqualTo("at $.panels: expected an array, got a number");

      // Saved through the store: the file is rewritten, stable and diff-friendly.
      int versions = store.versions("Oxed_c6Wz").size();
      store.save(retitled(loaded.dashboard(), "DCGM (edited)"), "", "ana", "title");
      String written = Files.readString(file);
      assertThat(written).startsWith("{\n  \"__inputs\": [\n");
      assertThat(written).contains("\n  \"title\": \"DCGM (edited)\",\n").endsWith("}\n");
      assertThat(written.indexOf("\"panels\"")).isLessThan(written.indexOf("\"schemaVersion\""));
      assertThat(
              DashboardImporter.importDocument(written.getBytes(StandardCharsets.UTF_8))
                  .dashboard())
          .isEqualTo(store.get("Oxed_c6Wz").orElseThrow().dashboard());
      store.rescan(); // reads back what it wrote: no new version
      assertThat(store.versions("Oxed_c6Wz")).hasSize(versions + 1);

      // Edited on disk: picked up by the next scan as a new version.
      Files.writeString(file, written.replace("DCGM (edited)", "DCGM (from git)"));
      Files.setLastModifiedTime(
          file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 2000));
      store.rescan();
      assertThat(store.get("Oxed_c6Wz").orElseThrow().dashboard().title())
          .isEqualTo("DCGM (from git)");
      assertThat(store.versions("Oxed_c6Wz")).hasSize(versions + 2);

      assertThatThrownBy(() -> store.delete("Oxed_c6Wz"))
          .isInstanceOf(DashboardStoreException.class)
          .hasMessageContaining("provisioned from")
          .hasMessageContaining("delete the file instead");

      Files.delete(file);
      store.rescan();
      assertThat(store.get("Oxed_c6Wz")).isEmpty();
    }
  }

  @Test
  void watchingPicksUpANewFile() throws Exception {
    Path dir = Files.createDirectories(temp.resolve("watched"));
    try (DashboardStore store = open(dir)) {
      store.watch(java.time.Duration.ofMillis(50));
      Files.write(dir.resolve("dcgm.json"), DcgmDashboardTest.fixture());
      // Bounded wait for the watcher's thread; no timing is asserted.
      for (int i = 0;
          i < 200 && !store.get("Oxed_c6Wz").map(StoredDashboard::provisioned).orElse(false);
          i++) {
        Thread.sleep(50);
      }
      assertThat(store.get("Oxed_c6Wz").orElseThrow().provisioned()).isTrue();
    }
  }

  @Test
  void aPersesYamlFileIsWrittenBackAsYaml() throws Exception {
    Path dir = Files.createDirectories(temp.resolve("perses"));
    Path file = dir.resolve("training.yaml");
    Files.writeString(file, PersesRoundTripTest.YAML);
    try (DashboardStore store = open(dir)) {
      StoredDashboard loaded = store.get("training-overview").orElseThrow();
      assertThat(loaded.folder()).isEqualTo("perses");
      store.save(retitled(loaded.dashboard(), "Renamed"), "", "ana", "");
      String written = Files.readString(file);
      assertThat(written).contains("kind: \"Dashboard\"").contains("name: \"Renamed\"");
      assertThat(
              DashboardImporter.importDocument(written.getBytes(StandardCharsets.UTF_8))
                  .dashboard())
          .isEqualTo(store.get("training-overview").orElseThrow().dashboard());
    }
  }

  @Test
  void twoFilesWithOneUidKeepTheFirst() throws Exception {
    Path dir = Files.createDirectories(temp.resolve("dup"));
    Files.write(dir.resolve("a.json"), DcgmDashboardTest.fixture());
    Files.write(dir.resolve("b.json"), DcgmDashboardTest.fixture());
    try (DashboardStore store = open(dir)) {
      assertThat(store.get("Oxed_c6Wz").orElseThrow().provisionedFrom()).endsWith("a.json");
      assertThat(store.provisioningErrors().get(dir.resolve("b.json")))
          .contains("already provisioned from");
    }
  }

  @Test
  void aRefusedSaveLeavesNothingBehind() throws Exception {
    try (DashboardStore store = open()) {
      store.save(dcgm().withUid("gpus"), "", "ana", "");
      Dashboard d = dcgm();
      Dashboard broken =
          new Dashboard(
              "gpus",
              "x",
              "",
              List.of(),
              d.time(),
              d.panels(),
              List.of(),
              List.of(),
              List.of(),
              List.of());
      assertThatThrownBy(() -> store.save(broken, "", "ana", ""))
          .isInstanceOf(DashboardFormatException.class)
          .hasMessageContaining("is in no layout section");
      assertThat(store.versions("gpus")).hasSize(1);
      try (var files = Files.list(temp.resolve("data/gpus"))) {
        assertThat(files.map(p -> p.getFileName().toString())).containsExactly("v1.json");
      }
    }
  }
}
