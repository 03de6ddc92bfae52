package io.flightdeck.tensorboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Coverage-guided fuzzing of TFRecord framing and event decoding (Jazzer). Without {@code
 * JAZZER_FUZZ} this replays the committed inputs in {@code EventFileJazzerFuzzTestInputs/
 * readEventFile}; {@code ./run-tests --fuzz tfrecord} explores from them (docs/testing.md).
 *
 * <p>An input's first byte picks what the rest is. Even: the event file itself, framing and
 * checksums included. Odd: record payloads, each behind a two-byte little-endian length, which are
 * framed here with correct checksums, since the fuzzer cannot compute CRC32C and would otherwise
 * seldom get past the framing to the protobuf decoder.
 */
class EventFileJazzerFuzzTest {
  /** One file, rewritten for every input: the reader reads paths, as the watcher does. */
  private static final Path FILE = newEventFile();

  /**
   * Damage never escapes as anything but data: the reader hands out points and {@link Corruption}s
   * inside the file, throws nothing, stops at the end of the file or before a short pending tail,
   * and a second poll of an unchanged file reports nothing new.
   */
  @FuzzTest(maxDuration = "30s")
  void readEventFile(byte[] input) throws IOException {
    if (input.length == 0) {
      return;
    }
    byte[] file =
        (input[0] & 1) == 0
            ? Arrays.copyOfRange(input, 1, input.length)
            : Records.frame(payloads(input).toArray(byte[][]::new));
    Files.write(FILE, file);

    CollectingListener listener = new CollectingListener();
    EventFileReader reader = new EventFileReader(FILE);
    ReadProgress progress = reader.poll(listener);

    assertThat(progress.offset()).isBetween(0L, (long) file.length);
    assertThat(progress.offset() + progress.pendingBytes()).isEqualTo(file.length);
    assertThat(listener.points).doesNotContainNull();
    assertThat(listener.corruptions)
        .allSatisfy(c -> assertThat(c.offset()).isBetween(0L, (long) file.length));
    int points = listener.points.size();
    int corruptions = listener.corruptions.size();
    ReadProgress again = reader.poll(listener);
    assertThat(again.records()).isZero();
    assertThat(again.offset()).isEqualTo(progress.offset());
    assertThat(listener.points).hasSize(points);
    assertThat(listener.corruptions).hasSize(corruptions);
  }

  private static List<byte[]> payloads(byte[] input) {
    List<byte[]> payloads = new ArrayList<>();
    int at = 1;
    while (at + 2 <= input.length) {
      int length = (input[at] & 0xff) | (input[at + 1] & 0xff) << 8;
      int from = at + 2;
      int to = Math.min(input.length, from + length);
      payloads.add(Arrays.copyOfRange(input, from, to));
      at = to;
    }
    return payloads;
  }

  private static Path newEventFile() {
    try {
      Path directory = Files.createTempDirectory("tfevents-fuzz");
      directory.toFile().deleteOnExit();
      Path file = directory.resolve("events.out.tfevents.1.fuzz");
      file.toFile().deleteOnExit();
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
