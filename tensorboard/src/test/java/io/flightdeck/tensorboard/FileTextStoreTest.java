package io.flightdeck.tensorboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileTextStoreTest {
  private static final String LOGDIR = "logs/exp1";
  private static final double T0 = 1_700_000_000.5;

  @TempDir Path dataDir;

  @Test
  void storesListsFetchesAndSearches() {
    try (FileTextStore store = FileTextStore.open(dataDir, LOGDIR)) {
      assertThat(store.append("b", text("samples/text_summary", 0, "the cat sat"))).isTrue();
      assertThat(store.append("b", text("samples/text_summary", 10, "the dog ran", "é ✓")))
          .isTrue();
      assertThat(store.append("b", text("notes", 5, "cat food"))).isTrue();
      assertThat(store.append("a", text("samples/text_summary", 20, "a cat again"))).isTrue();

      assertThat(store.runs()).containsExactly("a", "b");
      assertThat(store.tags("b")).containsExactly("notes", "samples/text_summary");
      assertThat(store.tags("missing")).isEmpty();
      assertThat(store.fetch("b", "samples/text_summary", 0, Long.MAX_VALUE))
          .containsExactly(
              new TextSample("b", "samples/text_summary", 0, T0, List.of("the cat sat")),
              new TextSample(
                  "b", "samples/text_summary", 10, T0 + 10, List.of("the dog ran", "é ✓")));
      assertThat(store.fetch("b", "samples/text_summary", 1, 10))
          .extracting(TextSample::step)
          .containsExactly(10L);
      assertThat(store.search("cat", 10))
          .extracting(TextSample::run, TextSample::tag, TextSample::step)
          .containsExactly(
              tuple("a", "samples/text_summary", 20L),
              tuple("b", "notes", 5L),
              tuple("b", "samples/text_summary", 0L));
      assertThat(store.search("cat", 2)).hasSize(2);
      assertThat(store.search("✓", 10)).extracting(TextSample::step).containsExactly(10L);
      assertThat(store.search("CAT", 10)).isEmpty();
    }
  }

  @Test
  void survivesReopeningAndSkipsSamplesItAlreadyHas() {
    try (FileTextStore store = FileTextStore.open(dataDir, LOGDIR)) {
      store.append("r", text("t", 1, "one"));
      store.append("r", text("t", 2, "two"));
    }
    try (FileTextStore store = FileTextStore.open(dataDir, LOGDIR)) {
      assertThat(store.truncatedBytes()).isZero();
      assertThat(store.append("r", text("t", 1, "one"))).isFalse();
      assertThat(store.append("r", text("t", 3, "three"))).isTrue();
      assertThat(store.fetch("r", "t", 0, 9))
          .extracting(TextSample::values)
          .containsExactly(List.of("one"), List.of("two"), List.of("three"));
    }
  }

  @Test
  void aLowerStepSupersedesSamplesAtOrAfterIt() {
    try (FileTextStore store = FileTextStore.open(dataDir, LOGDIR)) {
      for (int step = 0; step < 4; step++) {
        store.append("r", text("t", step, "first pass " + step));
      }
      store.append("r", new TextPoint("t", 2, T0 + 100, List.of("resumed 2")));

      assertThat(store.fetch("r", "t", 0, 9))
          .extracting(TextSample::values)
          .containsExactly(List.of("first pass 0"), List.of("first pass 1"), List.of("resumed 2"));
      assertThat(store.search("first pass 3", 10)).isEmpty();
    }
  }

  /**
   * Appends wait in a write buffer: what is read back meanwhile, and what a sync leaves in the
   * file, is every sample, over several buffers' worth and past a sample larger than one buffer.
   */
  @Test
  void bufferedAppendsReadBackAtOnceAndAreInTheFileAfterASync() {
    String large = "x".repeat(RecordFile.WRITE_BUFFER_BYTES + 100);
    int samples = 3 * RecordFile.WRITE_BUFFER_BYTES / 100;
    try (FileTextStore store = FileTextStore.open(dataDir, LOGDIR)) {
      for (int step = 0; step < samples; step++) {
        store.append("r", text("t", step, step == samples / 2 ? large : "sample " + step));
        assertThat(store.fetch("r", "t", step, step))
            .extracting(TextSample::step)
            .containsExactly((long) step);
      }
      store.sync();
      // The file alone, read while the store is still open, holds them all.
      try (FileTextStore fromTheFile = FileTextStore.open(dataDir, LOGDIR)) {
        assertThat(fromTheFile.truncatedBytes()).isZero();
        List<TextSample> all = fromTheFile.fetch("r", "t", 0, Long.MAX_VALUE);
        assertThat(all).hasSize(samples);
        assertThat(all.get(samples / 2).values()).containsExactly(large);
        assertThat(all.get(samples - 1).values()).containsExactly("sample " + (samples - 1));
      }
    }
  }

  @Test
  void aTornLastWriteIsCutOnOpenAndWritingGoesOn() throws IOException {
    Path file;
    try (FileTextStore store = FileTextStore.open(dataDir, LOGDIR)) {
      store.append("r", text("t", 1, "kept"));
      store.append("r", text("t", 2, "torn"));
      file = dataDir.resolve("tensorboard-text").resolve(FileTextStore.fileName(LOGDIR));
    }
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, Arrays.copyOf(bytes, bytes.length - 3));

    try (FileTextStore store = FileTextStore.open(dataDir, LOGDIR)) {
      assertThat(store.truncatedBytes()).isPositive();
      assertThat(store.fetch("r", "t", 0, 9)).extracting(TextSample::step).containsExactly(1L);
      // The re-read of the logdir writes the lost sample again.
      assertThat(store.append("r", text("t", 2, "torn"))).isTrue();
    }
    try (FileTextStore store = FileTextStore.open(dataDir, LOGDIR)) {
      assertThat(store.truncatedBytes()).isZero();
      assertThat(store.fetch("r", "t", 0, 9)).extracting(TextSample::step).containsExactly(1L, 2L);
    }
  }

  @Test
  void aBadChecksumEndsTheFile() throws IOException {
    Path file;
    try (FileTextStore store = FileTextStore.open(dataDir, LOGDIR)) {
      store.append("r", text("t", 1, "kept"));
      store.append("r", text("t", 2, "flipped"));
      file = dataDir.resolve("tensorboard-text").resolve(FileTextStore.fileName(LOGDIR));
    }
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length - 6] ^= 1;
    Files.write(file, bytes);

    try (FileTextStore store = FileTextStore.open(dataDir, LOGDIR)) {
      assertThat(store.fetch("r", "t", 0, 9)).extracting(TextSample::step).containsExactly(1L);
      assertThat(store.search("flipped", 9)).isEmpty();
    }
  }

  @Test
  void refusesAFileOfAnotherLogdirOrNotOurs() throws IOException {
    FileTextStore.open(dataDir, "other").close();
    Path dir = dataDir.resolve("tensorboard-text");
    Files.move(
        dir.resolve(FileTextStore.fileName("other")), dir.resolve(FileTextStore.fileName(LOGDIR)));
    assertThatThrownBy(() -> FileTextStore.open(dataDir, LOGDIR))
        .isInstanceOf(StoreFileException.class)
        .hasMessage(
            "text store belongs to logdir other, not logs/exp1 [file="
                + dir.resolve(FileTextStore.fileName(LOGDIR))
                + "]");

    Files.writeString(dir.resolve(FileTextStore.fileName("garbage")), "not a text store at all");
    assertThatThrownBy(() -> FileTextStore.open(dataDir, "garbage"))
        .isInstanceOf(StoreFileException.class)
        .hasMessageStartingWith("text store header missing or damaged [file=");
  }

  private static TextPoint text(String tag, long step, String... values) {
    return new TextPoint(tag, step, T0 + step, List.of(values));
  }
}
