package io.flightdeck.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.MetricType;
import io.flightdeck.model.StaleMarker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PushGroupStoreTest {
  @TempDir Path dir;

  private static PushGroup group(String job, double value) {
    Labels grouping = Labels.of("job", job, "run", "lora/7");
    Map<Labels, Double> series = new LinkedHashMap<>();
    series.put(Labels.of("__name__", "train_loss", "job", job, "run", "lora/7"), value);
    series.put(Labels.of("__name__", "gpu_temp", "job", job, "run", "lora/7", "gpu", "0"), 71.5);
    return new PushGroup(
        grouping,
        series,
        Map.of("train_loss", new MetricMetadata(MetricType.GAUGE, "Training loss, ünïcode.", "")),
        1_700_000_000_123L,
        PushGroup.NEVER);
  }

  private Path file() {
    return dir.resolve(PushGroupStore.FILE_NAME);
  }

  @Test
  void aFreshDirectoryHasNoGroups() throws IOException {
    PushGroupStore store = PushGroupStore.open(dir.resolve("push"));

    assertThat(store.loaded()).isEmpty();
    assertThat(store.loadProblem()).isEmpty();
    assertThat(dir.resolve("push")).isDirectory();
  }

  @Test
  void groupsRoundTripBitExactly() throws IOException {
    Map<Labels, Double> odd = new LinkedHashMap<>();
    odd.put(Labels.of("__name__", "x", "job", "odd"), StaleMarker.VALUE);
    odd.put(Labels.of("__name__", "y", "job", "odd"), Double.NEGATIVE_INFINITY);
    List<PushGroup> groups =
        List.of(
            group("a", 0.42),
            new PushGroup(Labels.of("job", "odd"), odd, Map.of(), 5, 6),
            PushGroup.failedOnly(Labels.of("job", "failed"), 7));

    PushGroupStore.open(dir).replaceAll(groups);
    PushGroupStore reopened = PushGroupStore.open(dir);

    assertThat(reopened.loadProblem()).isEmpty();
    assertThat(reopened.loaded()).containsExactlyElementsOf(groups);
    assertThat(reopened.loaded().get(0).series().keySet())
        .containsExactlyElementsOf(groups.get(0).series().keySet());
    assertThat(
            Double.doubleToRawLongBits(
                reopened.loaded().get(1).series().get(Labels.of("__name__", "x", "job", "odd"))))
        .isEqualTo(StaleMarker.BITS);
  }

  @Test
  void aChangeReplacesTheWholeFile() throws IOException {
    PushGroupStore store = PushGroupStore.open(dir);
    store.replaceAll(List.of(group("a", 1), group("b", 2)));

    store.replaceAll(List.of(group("b", 3)));

    assertThat(PushGroupStore.open(dir).loaded()).containsExactly(group("b", 3));
    assertThat(dir.resolve(PushGroupStore.FILE_NAME + ".tmp")).doesNotExist();
  }

  @Test
  void aCorruptRecordKeepsTheGroupsBeforeItAndNamesFileAndOffset() throws IOException {
    PushGroupStore.open(dir).replaceAll(List.of(group("a", 1), group("b", 2), group("c", 3)));
    byte[] bytes = Files.readAllBytes(file());
    int secondRecord = PushGroupFormat.encode(List.of(group("a", 1))).length;
    bytes[secondRecord + 20] ^= 0x40;
    Files.write(file(), bytes);

    PushGroupStore store = PushGroupStore.open(dir);

    assertThat(store.loaded()).containsExactly(group("a", 1));
    assertThat(store.loadProblem())
        .hasValue(
            "push group file "
                + file()
                + " is damaged at offset "
                + secondRecord
                + ": group 2 of 3: checksum mismatch; starting with the 1 groups before it (the"
                + " file is kept as "
                + file()
                + ".corrupt)");
    assertThat(dir.resolve(PushGroupStore.FILE_NAME + ".corrupt")).hasBinaryContent(bytes);
  }

  @Test
  void aTruncatedFileKeepsTheCompleteGroups() throws IOException {
    PushGroupStore.open(dir).replaceAll(List.of(group("a", 1), group("b", 2), group("c", 3)));
    byte[] bytes = Files.readAllBytes(file());
    int thirdRecord = PushGroupFormat.encode(List.of(group("a", 1), group("b", 2))).length;
    Files.write(file(), Arrays.copyOf(bytes, bytes.length - 5));

    PushGroupStore store = PushGroupStore.open(dir);

    assertThat(store.loaded()).containsExactly(group("a", 1), group("b", 2));
    assertThat(store.loadProblem().orElseThrow())
        .contains("offset " + thirdRecord + ": group 3 of 3: truncated, record of ");

    Files.write(file(), Arrays.copyOf(bytes, thirdRecord));
    assertThat(PushGroupStore.open(dir).loadProblem().orElseThrow())
        .contains("offset " + thirdRecord + ": group 3 of 3: truncated, the file ends");
  }

  @Test
  void aFileOfAnotherKindLoadsNothingWithoutFailing() throws IOException {
    Files.writeString(file(), "not a push group file at all");

    PushGroupStore store = PushGroupStore.open(dir);

    assertThat(store.loaded()).isEmpty();
    assertThat(store.loadProblem().orElseThrow()).contains("offset 0: bad magic 0x6e6f7420");

    Files.write(file(), new byte[] {0x46, 0x44});
    assertThat(PushGroupStore.open(dir).loadProblem().orElseThrow())
        .contains("offset 0: truncated header, 2 bytes");
  }

  @Test
  void aNewerVersionIsReportedNotGuessed() throws IOException {
    PushGroupStore.open(dir).replaceAll(List.of(group("a", 1)));
    byte[] bytes = Files.readAllBytes(file());
    bytes[4] = 2;
    Files.write(file(), bytes);

    PushGroupStore store = PushGroupStore.open(dir);

    assertThat(store.loaded()).isEmpty();
    assertThat(store.loadProblem().orElseThrow()).contains("offset 4: unsupported version 2");
  }

  @Test
  void aFailedWriteLeavesTheOldFileIntact() throws IOException {
    PushGroupStore store = PushGroupStore.open(dir);
    store.replaceAll(List.of(group("a", 1)));
    // A directory where the temporary file goes makes the write fail, even for root.
    Files.createDirectory(dir.resolve(PushGroupStore.FILE_NAME + ".tmp"));

    assertThatThrownBy(() -> store.replaceAll(List.of(group("a", 2))))
        .isInstanceOf(IOException.class);

    assertThat(PushGroupStore.open(dir).loaded()).containsExactly(group("a", 1));
  }

  @Test
  void aTemporaryFileLeftByACrashIsDiscarded() throws IOException {
    PushGroupStore.open(dir).replaceAll(List.of(group("a", 1)));
    Files.write(
        dir.resolve(PushGroupStore.FILE_NAME + ".tmp"),
        PushGroupFormat.encode(List.of(group("a", 9))));

    assertThat(PushGroupStore.open(dir).loaded()).containsExactly(group("a", 1));
    assertThat(dir.resolve(PushGroupStore.FILE_NAME + ".tmp")).doesNotExist();
  }
}
