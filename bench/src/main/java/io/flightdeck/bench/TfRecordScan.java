package io.flightdeck.bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The raw limit of reading a logdir: every event file read once, in name order on one thread, each
 * TFRecord's two masked CRC32C checked, nothing decoded. What an importer that also decodes and
 * stores can at best approach.
 */
final class TfRecordScan {
  /** What a scan found. */
  record Result(long files, long records, long bytes, long badCrcs) {}

  private final MaskedCrc32c crc = new MaskedCrc32c();
  private byte[] payload = new byte[64 * 1024];
  private final byte[] header = new byte[12];
  private final byte[] footer = new byte[4];

  Result scan(Path logdir) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(logdir)) {
      files =
          walk.filter(p -> p.getFileName().toString().contains("tfevents"))
              .filter(Files::isRegularFile)
              .sorted()
              .toList();
    }
    long records = 0;
    long bytes = 0;
    long bad = 0;
    for (Path file : files) {
      try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 20)) {
        while (in.readNBytes(header, 0, 12) == 12) {
          ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
          long length = h.getLong(0);
          if (crc.of(header, 0, 8) != h.getInt(8) || length > Integer.MAX_VALUE - 16) {
            bad++;
            break; // a bad length cannot be trusted to find the next record
          }
          int n = (int) length;
          if (n > payload.length) {
            payload = new byte[Math.max(n, payload.length * 2)];
          }
          if (in.readNBytes(payload, 0, n) != n || in.readNBytes(footer, 0, 4) != 4) {
            break; // a record still being written
          }
          int stored = ByteBuffer.wrap(footer).order(ByteOrder.LITTLE_ENDIAN).getInt();
          if (crc.of(payload, 0, n) != stored) {
            bad++;
          }
          records++;
          bytes += 16L + n;
        }
      }
    }
    return new Result(files.size(), records, bytes, bad);
  }
}
