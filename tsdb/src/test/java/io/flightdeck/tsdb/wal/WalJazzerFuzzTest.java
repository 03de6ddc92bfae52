package io.flightdeck.tsdb.wal;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Coverage-guided fuzzing of the WAL segment reader (Jazzer). Without {@code JAZZER_FUZZ} this
 * replays the committed inputs in {@code WalJazzerFuzzTestInputs/walSegment}; {@code ./run-tests
 * --fuzz wal-segment} explores from them (docs/testing.md).
 *
 * <p>An input's first byte picks what the rest is. Even: the segment file itself. Odd: records,
 * each a type byte and a two-byte little-endian length before its payload, framed here behind a
 * valid header with correct checksums, since the fuzzer cannot compute CRC32C and would otherwise
 * seldom reach the record decoder.
 */
class WalJazzerFuzzTest {
  /** One segment file, rewritten for every input. */
  private static final Path FILE = newSegmentFile();

  /**
   * Damage is data, never an exception: the reader returns what it could read, each damaged range
   * inside the file after the header, and a torn tail only where a frame starts.
   */
  @FuzzTest(maxDuration = "30s")
  void walSegment(byte[] input) throws IOException {
    if (input.length == 0) {
      return;
    }
    byte[] segment =
        (input[0] & 1) == 0 ? Arrays.copyOfRange(input, 1, input.length) : framedRecords(input);
    Files.write(FILE, segment);

    WalSegmentReader.Result result = WalSegmentReader.read(FILE, 0, type -> true, new Visitor());

    assertThat(result.records()).isBetween(0L, (long) segment.length);
    assertThat(result.recordsAfterDamage()).isBetween(0L, result.records());
    assertThat(result.tornTailAt()).isBetween(-1L, (long) segment.length - 1);
    assertThat(result.damages())
        .allSatisfy(
            damage -> {
              assertThat(damage.start()).isBetween((long) WalSegments.HEADER_SIZE, damage.end());
              assertThat(damage.end()).isLessThanOrEqualTo(segment.length);
            });
  }

  private static byte[] framedRecords(byte[] input) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(WalSegments.header());
    CRC32C crc = new CRC32C();
    int at = 1;
    while (at + 3 <= input.length) {
      byte type = input[at];
      int length = (input[at + 1] & 0xff) | (input[at + 2] & 0xff) << 8;
      int from = at + 3;
      int to = Math.min(input.length, from + length);
      crc.reset();
      crc.update(type);
      crc.update(input, from, to - from);
      out.write(type);
      out.writeBytes(ByteBuffer.allocate(8).putInt(to - from).putInt((int) crc.getValue()).array());
      out.write(input, from, to - from);
      at = to;
    }
    return out.toByteArray();
  }

  /** Checks that decoded entries arrive whole. */
  private static final class Visitor implements WalVisitor {
    @Override
    public void series(long ref, Labels labels) {
      assertThat(labels).isNotNull();
    }

    @Override
    public void sample(long ref, long timestamp, double value) {}

    @Override
    public void metadata(String metricName, MetricMetadata metadata) {
      assertThat(metricName).isNotNull();
      assertThat(metadata).isNotNull();
    }

    @Override
    public void tombstone(long ref, long mint, long maxt) {}
  }

  private static Path newSegmentFile() {
    try {
      Path directory = Files.createTempDirectory("wal-fuzz");
      directory.toFile().deleteOnExit();
      Path file = directory.resolve(WalSegments.name(0));
      file.toFile().deleteOnExit();
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
