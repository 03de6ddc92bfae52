package io.flightdeck.tsdb.wal;

import io.flightdeck.storage.StorageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Repairs a segment after {@link WalSegmentReader} found damage, keeping every valid record where
 * it is: a damaged range becomes one padding frame of the same length (later records keep the
 * offsets that block-flushed markers name), a wrong header is rewritten, a torn tail is cut. Before
 * anything but a torn tail is repaired, the segment as found is copied to {@code wal/damaged/}.
 */
final class WalSalvage {
  static final String DAMAGED_DIR = "damaged";

  private WalSalvage() {}

  /**
   * Repairs {@code file} and says what was lost and where, and where the copy is.
   *
   * @param walDir the WAL directory, under which the copy goes
   */
  static String repair(Path walDir, Path file, WalSegmentReader.Result result) throws IOException {
    boolean onlyTornTail = !result.badHeader() && result.damages().isEmpty();
    Path copy = onlyTornTail ? null : copyAside(walDir, file, result.bytes());
    boolean nothingLeft = result.records() == 0 && result.badHeader();
    if (nothingLeft) {
      Files.deleteIfExists(file);
    } else {
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
        if (result.badHeader()) {
          write(channel, 0, ByteBuffer.wrap(WalSegments.header()));
        }
        for (WalDamage damage : result.damages()) {
          pad(channel, damage.start(), damage.end());
        }
        if (result.tornTailAt() >= 0) {
          channel.truncate(result.tornTailAt());
        }
        channel.force(true);
      }
    }
    return describe(file, result, copy, nothingLeft);
  }

  /** What replay of a damaged segment found, for a read-only open that repairs nothing. */
  static String describe(Path file, WalSegmentReader.Result result) {
    return describe(file, result, null, false);
  }

  private static String describe(
      Path file, WalSegmentReader.Result result, Path copy, boolean deleted) {
    StringBuilder message = new StringBuilder();
    long lostRecords = 0;
    long lostSamples = 0;
    boolean exact = true;
    if (result.badHeader()) {
      message.append("missing or wrong segment header; ");
    }
    for (WalDamage damage : result.damages()) {
      message.append(damage.describe()).append("; ");
      lostRecords += damage.records();
      lostSamples += damage.samples();
      exact &= damage.exact();
    }
    if (result.tornTailAt() >= 0) {
      message
          .append("torn record at offset ")
          .append(result.tornTailAt())
          .append(" (the last write before a crash, ")
          .append(result.bytes().length - result.tornTailAt())
          .append(" bytes) cut; ");
    }
    String bound = exact ? "" : "at least ";
    message
        .append("lost ")
        .append(bound)
        .append(lostRecords)
        .append(lostRecords == 1 ? " record with " : " records with ")
        .append(bound)
        .append(lostSamples)
        .append(" samples, kept ")
        .append(result.records())
        .append(" records (")
        .append(result.recordsAfterDamage())
        .append(" of them after the damage)");
    if (deleted) {
      message.append("; nothing was left to keep, the segment is removed");
    }
    if (copy != null) {
      message.append("; the segment as found is in ").append(copy);
    }
    return StorageException.withContext(
        "salvaged a damaged write-ahead log segment: " + message, "file", file);
  }

  private static Path copyAside(Path walDir, Path file, byte[] bytes) throws IOException {
    Path dir = walDir.resolve(DAMAGED_DIR);
    Files.createDirectories(dir);
    String name =
        file.getParent().equals(walDir)
            ? file.getFileName().toString()
            : file.getParent().getFileName() + "-" + file.getFileName();
    Path copy = dir.resolve(name);
    for (int n = 1; Files.exists(copy); n++) {
      copy = dir.resolve(name + "." + n);
    }
    Path tmp = dir.resolve(copy.getFileName() + ".tmp");
    Files.write(tmp, bytes);
    try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
      channel.force(true);
    }
    Files.move(tmp, copy);
    Wal.syncDirectory(dir);
    return copy;
  }

  /**
   * Overwrites {@code [start, end)} with one padding frame; a damaged range is at least a header.
   */
  private static void pad(FileChannel channel, long start, long end) throws IOException {
    int length = (int) (end - start - WalSegments.FRAME_HEADER_SIZE);
    CRC32C crc = new CRC32C();
    crc.update(WalRecordCodec.PADDING);
    byte[] zeros = new byte[Math.min(length, 1 << 16)];
    for (int left = length; left > 0; left -= zeros.length) {
      crc.update(zeros, 0, Math.min(left, zeros.length));
    }
    ByteBuffer header = ByteBuffer.allocate(WalSegments.FRAME_HEADER_SIZE);
    header.put((byte) WalRecordCodec.PADDING).putInt(length).putInt((int) crc.getValue()).flip();
    write(channel, start, header);
    long at = start + WalSegments.FRAME_HEADER_SIZE;
    for (int left = length; left > 0; ) {
      int n = Math.min(left, zeros.length);
      write(channel, at, ByteBuffer.wrap(zeros, 0, n));
      at += n;
      left -= n;
    }
  }

  private static void write(FileChannel channel, long position, ByteBuffer buffer)
      throws IOException {
    long at = position;
    while (buffer.hasRemaining()) {
      at += channel.write(buffer, at);
    }
  }
}
