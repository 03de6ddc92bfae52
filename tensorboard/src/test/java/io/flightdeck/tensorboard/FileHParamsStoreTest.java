package io.flightdeck.tensorboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileHParamsStoreTest {
  private static final String LOGDIR = "logs/exp1";

  @TempDir Path dataDir;

  @Test
  void mergesTheThreeMessagesOfARunAndSurvivesReopening() {
    RunHParams expected =
        new RunHParams(
            "r",
            Map.of("lr", 0.1, "optimizer", "adam", "nesterov", true),
            "group-a",
            List.of("lr", "optimizer"),
            List.of("hparam/accuracy"),
            "STATUS_SUCCESS");
    try (FileHParamsStore store = FileHParamsStore.open(dataDir, LOGDIR)) {
      assertThat(store.append("r", experiment(List.of("lr", "optimizer")))).isTrue();
      assertThat(
              store.append(
                  "r", start(Map.of("lr", 0.1, "optimizer", "adam", "nesterov", true), "group-a")))
          .isTrue();
      assertThat(store.append("r", end("STATUS_SUCCESS"))).isTrue();
      assertThat(store.append("other", start(Map.of("lr", 0.5), ""))).isTrue();
      assertThat(store.runs()).extracting(RunHParams::run).containsExactly("other", "r");
      assertThat(store.runs().get(1)).isEqualTo(expected);
    }
    try (FileHParamsStore store = FileHParamsStore.open(dataDir, LOGDIR)) {
      assertThat(store.truncatedBytes()).isZero();
      assertThat(store.runs().get(1)).isEqualTo(expected);
      // A re-read of the same event file changes nothing and writes nothing.
      assertThat(store.append("r", end("STATUS_SUCCESS"))).isFalse();
    }
  }

  @Test
  void theLatestWriteWinsAlsoAfterReopening() {
    try (FileHParamsStore store = FileHParamsStore.open(dataDir, LOGDIR)) {
      store.append("r", start(Map.of("lr", 0.1), "g"));
      store.append("r", start(Map.of("lr", 0.2), "g"));
      assertThat(store.runs().getFirst().hparams()).isEqualTo(Map.of("lr", 0.2));
    }
    try (FileHParamsStore store = FileHParamsStore.open(dataDir, LOGDIR)) {
      assertThat(store.runs().getFirst().hparams()).isEqualTo(Map.of("lr", 0.2));
    }
  }

  @Test
  void aTornLastWriteIsCutOnOpen() throws IOException {
    try (FileHParamsStore store = FileHParamsStore.open(dataDir, LOGDIR)) {
      store.append("r", start(Map.of("lr", 0.1), ""));
      store.append("r", end("STATUS_FAILURE"));
    }
    Path file = dataDir.resolve("tensorboard-hparams").resolve(FileHParamsStore.fileName(LOGDIR));
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, Arrays.copyOf(bytes, bytes.length - 2));

    try (FileHParamsStore store = FileHParamsStore.open(dataDir, LOGDIR)) {
      assertThat(store.truncatedBytes()).isPositive();
      assertThat(store.runs().getFirst().status()).isEmpty();
      assertThat(store.append("r", end("STATUS_FAILURE"))).isTrue();
    }
    try (FileHParamsStore store = FileHParamsStore.open(dataDir, LOGDIR)) {
      assertThat(store.runs().getFirst().status()).isEqualTo("STATUS_FAILURE");
    }
  }

  private static HParamsPoint experiment(List<String> names) {
    return point(HParamsPoint.Kind.EXPERIMENT, Map.of(), names, "", "");
  }

  private static HParamsPoint start(Map<String, Object> values, String group) {
    return point(HParamsPoint.Kind.SESSION_START, values, List.of(), group, "");
  }

  private static HParamsPoint end(String status) {
    return point(HParamsPoint.Kind.SESSION_END, Map.of(), List.of(), "", status);
  }

  private static HParamsPoint point(
      HParamsPoint.Kind kind,
      Map<String, Object> values,
      List<String> names,
      String group,
      String status) {
    List<String> metrics =
        kind == HParamsPoint.Kind.EXPERIMENT ? List.of("hparam/accuracy") : List.of();
    return new HParamsPoint(
        "_hparams_/x", 0, 1.7e9, kind, values, names, metrics, group, status, 0);
  }
}
