package io.flightdeck.tensorboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.testkit.Gen;
import io.flightdeck.testkit.Generators;
import io.flightdeck.testkit.Property;
import io.flightdeck.testkit.SharedFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Garbage never escapes as anything but data: random bytes and randomly damaged real files decode
 * to points and {@link Corruption}s, the reader never throws, and it always ends at the end of the
 * file or in a short pending tail.
 */
class EventFileFuzzTest {
  private static final byte[] FIXTURE = readFixture();

  @Test
  void randomBytes() {
    Property.tries(300).check(in -> check(in.draw("bytes", Generators.byteArrays(0, 2000))));
  }

  @Test
  void randomBytesBehindAValidRecord() {
    Property.tries(300)
        .check(in -> behindAValidRecord(in.draw("bytes", Generators.byteArrays(0, 500))));
  }

  private static void behindAValidRecord(byte[] bytes) {
    byte[] framed = Records.frame(EventBytes.fileVersionEvent());
    byte[] all = Arrays.copyOf(framed, framed.length + bytes.length);
    System.arraycopy(bytes, 0, all, framed.length, bytes.length);
    CollectingListener listener = check(all);
    assertThat(listener.versions).isNotEmpty();
  }

  /** Garbage inside sound framing reaches the protobuf decoder, which must report, not throw. */
  @Test
  void randomPayloadsInValidRecords() {
    Property.tries(300)
        .check(in -> inValidRecords(in.draw("payloads", Generators.byteArrays(0, 300).list(0, 5))));
  }

  private static void inValidRecords(List<byte[]> payloads) {
    CollectingListener listener = check(Records.frame(payloads.toArray(byte[][]::new)));
    assertThat(listener.corruptions)
        .allSatisfy(c -> assertThat(c.kind()).isEqualTo(Corruption.Kind.BAD_EVENT));
  }

  /**
   * Real events with flipped bits, re-framed with correct CRCs: damaged protobuf, sound framing.
   */
  @Test
  void mutatedEventsInValidRecords() {
    Property.tries(300).check(in -> mutatedEvents(in.draw("mutations", mutations())));
  }

  private static void mutatedEvents(List<int[]> mutations) {
    List<Integer> offsets = Records.offsets(FIXTURE);
    byte[][] payloads = new byte[offsets.size()][];
    for (int i = 0; i < payloads.length; i++) {
      int from = offsets.get(i) + 12;
      int to = (i + 1 < offsets.size() ? offsets.get(i + 1) : FIXTURE.length) - 4;
      payloads[i] = Arrays.copyOfRange(FIXTURE, from, to);
    }
    for (int[] m : mutations) {
      byte[] payload = payloads[m[1] % payloads.length];
      if (payload.length > 0) {
        payload[m[2] * 7919 % payload.length] ^= (byte) (m[0] + 1 << (m[2] % 6));
      }
    }
    CollectingListener listener = check(Records.frame(payloads));
    assertThat(listener.corruptions)
        .allSatisfy(c -> assertThat(c.kind()).isEqualTo(Corruption.Kind.BAD_EVENT));
  }

  /** Each mutation: flip bytes, cut the file, or paste a random chunk somewhere. */
  @Test
  void mutatedFixture() {
    Property.tries(300).check(in -> mutatedFile(in.draw("mutations", mutations())));
  }

  private static void mutatedFile(List<int[]> mutations) {
    byte[] bytes = FIXTURE.clone();
    for (int[] m : mutations) {
      int at = m[1] % Math.max(1, bytes.length);
      switch (m[0]) {
        case 0 -> {
          if (bytes.length > 0) {
            bytes[at] ^= (byte) (m[2] | 1);
          }
        }
        case 1 -> bytes = Arrays.copyOf(bytes, at);
        default -> {
          byte[] chunk = new byte[m[2] % 40];
          Arrays.fill(chunk, (byte) m[2]);
          byte[] out = new byte[bytes.length + chunk.length];
          System.arraycopy(bytes, 0, out, 0, at);
          System.arraycopy(chunk, 0, out, at, chunk.length);
          System.arraycopy(bytes, at, out, at + chunk.length, bytes.length - at);
          bytes = out;
        }
      }
    }
    CollectingListener listener = check(bytes);
    assertThat(listener.of(ScalarPoint.class).size()).isLessThanOrEqualTo(29);
  }

  /** Each mutation: its kind (0 to 2), where, and a byte's worth of what. */
  private static Gen<List<int[]>> mutations() {
    Gen<Integer> kind = Generators.integers(0, 2);
    Gen<Integer> number = Generators.integers(0, 1 << 20);
    Gen<int[]> one =
        c -> new int[] {kind.generate(c), number.generate(c), number.generate(c) & 0xff};
    return one.list(1, 4);
  }

  private static CollectingListener check(byte[] bytes) {
    try {
      Path file = Files.createTempFile("events.out.tfevents.", ".fuzz");
      try {
        Files.write(file, bytes);
        CollectingListener listener = new CollectingListener();
        EventFileReader reader = new EventFileReader(file);
        ReadProgress progress = reader.poll(listener);
        assertThat(progress.offset() + progress.pendingBytes()).isEqualTo(bytes.length);
        assertThat(progress.offset()).isBetween(0L, (long) bytes.length);
        assertThat(listener.corruptions)
            .allSatisfy(c -> assertThat(c.offset()).isBetween(0L, (long) bytes.length));
        // A second poll with nothing new reports nothing new.
        int corruptions = listener.corruptions.size();
        int points = listener.points.size();
        reader.poll(listener);
        assertThat(listener.corruptions).hasSize(corruptions);
        assertThat(listener.points).hasSize(points);
        return listener;
      } finally {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] readFixture() {
    try {
      return Files.readAllBytes(
          SharedFixtures.fixture(
              "tfevents/tensorboard-flight-analysis/test_logs/tensorboard/PPO_2/"
                  + "events.out.tfevents.1761085468.MacBookPro.lan.87403.1"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
