package io.flightdeck.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.flightdeck.config.FileSdConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileDiscovererTest extends DiscovererContractTest {
  private static final Duration WATCH = Duration.ofMillis(50);

  @TempDir Path dir;

  @Override
  Discoverer create(List<Declared> groups) throws IOException {
    Files.writeString(dir.resolve("targets.json"), json(groups));
    return discoverer("*.json");
  }

  private Discoverer discoverer(String glob) {
    // A long refresh interval: only the change watch can explain a prompt update.
    return new FileDiscoverer(
        "test", new FileSdConfig(List.of(dir.resolve(glob)), Duration.ofHours(1)), WATCH);
  }

  private static String json(List<Declared> groups) throws IOException {
    return new ObjectMapper()
        .writeValueAsString(
            groups.stream()
                .map(g -> Map.of("targets", g.addresses(), "labels", g.labels()))
                .toList());
  }

  @Test
  void readsYamlAndJsonThroughAGlobWithFilepathMeta() throws Exception {
    Files.writeString(
        dir.resolve("a.yml"),
        """
        - targets: ['trainer-0:8080', 'trainer-1:8080']
          labels:
            job: ms-swift-train
        """);
    Files.writeString(dir.resolve("b.json"), "[{\"targets\": [\"node:9100\"]}]");
    Files.writeString(dir.resolve("ignored.txt"), "not targets");

    List<TargetGroup> groups = next(start(discoverer("*")));

    assertThat(groups)
        .extracting(TargetGroup::source)
        .containsExactly(dir.resolve("a.yml") + ":0", dir.resolve("b.json") + ":0");
    assertThat(groups.get(0).targets()).hasSize(2);
    assertThat(groups.get(0).labels().get("job")).isEqualTo("ms-swift-train");
    assertThat(groups.get(0).labels().get("__meta_filepath"))
        .isEqualTo(dir.resolve("a.yml").toString());
  }

  @Test
  void reactsToFileChangesAndKeepsTheLastGoodGroupsWhenAFileBreaks() throws Exception {
    Path file = dir.resolve("targets.yaml");
    Files.writeString(file, "- targets: ['a:1']\n");
    Discoverer discoverer = discoverer("*.yaml");
    BlockingQueue<List<TargetGroup>> updates = start(discoverer);
    assertThat(next(updates).get(0).targets().get(0).get("__address__")).isEqualTo("a:1");

    Files.writeString(file, "- targets: ['a:1', 'b:2']\n");
    assertThat(next(updates).get(0).targets()).hasSize(2);

    Files.writeString(file, "- targets: {not: a list}\n");
    Await.until(() -> !discoverer.lastError().isEmpty());
    assertThat(discoverer.lastError()).contains("targets must be a list of strings");
    assertThat(updates).isEmpty();

    Files.delete(file);
    assertThat(next(updates)).isEmpty();
    assertThat(discoverer.lastError()).isEmpty();
  }
}
