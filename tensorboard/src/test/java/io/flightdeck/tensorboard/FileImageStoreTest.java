package io.flightdeck.tensorboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileImageStoreTest {
  private static final String LOGDIR = "logs/exp1";
  private static final double T0 = 1_700_000_000.5;
  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 1, 2};
  private static final byte[] GIF = {'G', 'I', 'F', '8', '9', 'a', 3};
  private static final byte[] JPEG = {(byte) 0xff, (byte) 0xd8, (byte) 0xff, (byte) 0xe0};

  @TempDir Path dataDir;

  @Test
  void storesListsAndReadsImagesWithTheirSizeAndType() {
    try (FileImageStore store = FileImageStore.open(dataDir, LOGDIR)) {
      assertThat(store.append("b", image("samples", 0, 0, PNG))).isTrue();
      assertThat(store.append("b", image("samples", 0, 1, GIF))).isTrue();
      assertThat(store.append("b", image("samples", 5, 0, JPEG))).isTrue();
      assertThat(store.append("b", image("other", 1, 0, new byte[] {1, 2, 3}))).isTrue();
      assertThat(store.append("a", image("samples", 2, 0, PNG))).isTrue();

      assertThat(store.runs()).containsExactly("a", "b");
      assertThat(store.tags("b")).containsExactly("other", "samples");
      assertThat(store.tags("missing")).isEmpty();
      assertThat(store.list("b", "samples", 0, Long.MAX_VALUE))
          .extracting(
              StoredImage::step,
              StoredImage::index,
              StoredImage::width,
              StoredImage::height,
              StoredImage::colorspace,
              StoredImage::contentType,
              StoredImage::byteLength)
          .containsExactly(
              tuple(0L, 0, 10, 20, 3, "image/png", PNG.length),
              tuple(0L, 1, 11, 20, 3, "image/gif", GIF.length),
              tuple(5L, 0, 10, 20, 3, "image/jpeg", JPEG.length));
      assertThat(store.list("b", "samples", 1, 5))
          .extracting(StoredImage::step)
          .containsExactly(5L);
      assertThat(store.list("b", "other", 0, 9))
          .extracting(StoredImage::contentType)
          .containsExactly("application/octet-stream");
      assertThat(store.read("b", "samples", 0, 1)).hasValue(GIF);
      assertThat(store.read("b", "samples", 0, 2)).isEmpty();
      assertThat(store.read("b", "samples", 3, 0)).isEmpty();
      assertThat(store.read("missing", "samples", 0, 0)).isEmpty();
    }
  }

  @Test
  void survivesReopeningAndSkipsImagesItAlreadyHas() {
    try (FileImageStore store = FileImageStore.open(dataDir, LOGDIR)) {
      store.append("r", image("t", 1, 0, PNG));
      store.append("r", image("t", 1, 1, GIF));
    }
    try (FileImageStore store = FileImageStore.open(dataDir, LOGDIR)) {
      assertThat(store.truncatedBytes()).isZero();
      assertThat(store.append("r", image("t", 1, 0, PNG))).isFalse();
      assertThat(store.append("r", image("t", 1, 1, GIF))).isFalse();
      assertThat(store.append("r", image("t", 2, 0, JPEG))).isTrue();
      assertThat(store.list("r", "t", 0, 9))
          .extracting(StoredImage::step, StoredImage::index)
          .containsExactly(tuple(1L, 0), tuple(1L, 1), tuple(2L, 0));
      assertThat(store.read("r", "t", 1, 1)).hasValue(GIF);
    }
  }

  @Test
  void aLowerStepSupersedesEventsAtOrAfterItKeepingAnEventsImagesTogether() {
    try (FileImageStore store = FileImageStore.open(dataDir, LOGDIR)) {
      for (int step = 0; step < 4; step++) {
        store.append("r", image("t", step, 0, PNG));
        store.append("r", image("t", step, 1, PNG));
      }
      store.append("r", new ImagePoint("t", 2, T0 + 100, 0, 1, 1, 0, JPEG));

      assertThat(store.list("r", "t", 0, 9))
          .extracting(StoredImage::step, StoredImage::index, StoredImage::contentType)
          .containsExactly(
              tuple(0L, 0, "image/png"),
              tuple(0L, 1, "image/png"),
              tuple(1L, 0, "image/png"),
              tuple(1L, 1, "image/png"),
              tuple(2L, 0, "image/jpeg"));
      assertThat(store.read("r", "t", 2, 0)).hasValue(JPEG);
      assertThat(store.read("r", "t", 2, 1)).isEmpty();
      assertThat(store.read("r", "t", 3, 0)).isEmpty();
    }
  }

  @Test
  void aTornLastWriteIsCutOnOpenAndWritingGoesOn() throws IOException {
    try (FileImageStore store = FileImageStore.open(dataDir, LOGDIR)) {
      store.append("r", image("t", 1, 0, PNG));
      store.append("r", image("t", 2, 0, GIF));
    }
    Path file = dataDir.resolve("tensorboard-images").resolve(FileImageStore.fileName(LOGDIR));
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, Arrays.copyOf(bytes, bytes.length - 3));

    try (FileImageStore store = FileImageStore.open(dataDir, LOGDIR)) {
      assertThat(store.truncatedBytes()).isPositive();
      assertThat(store.list("r", "t", 0, 9)).extracting(StoredImage::step).containsExactly(1L);
      assertThat(store.append("r", image("t", 2, 0, GIF))).isTrue();
    }
    try (FileImageStore store = FileImageStore.open(dataDir, LOGDIR)) {
      assertThat(store.truncatedBytes()).isZero();
      assertThat(store.read("r", "t", 2, 0)).hasValue(GIF);
    }
  }

  @Test
  void refusesATextStoreFile() throws IOException {
    FileTextStore.open(dataDir, LOGDIR).close();
    Path images = dataDir.resolve("tensorboard-images");
    Files.createDirectories(images);
    Files.copy(
        dataDir.resolve("tensorboard-text").resolve(FileTextStore.fileName(LOGDIR)),
        images.resolve(FileImageStore.fileName(LOGDIR)));
    assertThatThrownBy(() -> FileImageStore.open(dataDir, LOGDIR))
        .isInstanceOf(StoreFileException.class)
        .hasMessage(
            "image store header missing or damaged [file="
                + images.resolve(FileImageStore.fileName(LOGDIR))
                + "]");
  }

  private static ImagePoint image(String tag, long step, int index, byte[] encoded) {
    return new ImagePoint(tag, step, T0 + step, index, 10 + index, 20, 3, encoded);
  }
}
