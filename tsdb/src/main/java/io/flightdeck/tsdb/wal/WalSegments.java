package io.flightdeck.tsdb.wal;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Naming and the file header of WAL segments: {@code wal/00000042}, checkpoints beside them. */
final class WalSegments {
  static final byte[] MAGIC = {'F', 'D', 'W', 'L'};
  static final int VERSION = 1;
  static final int HEADER_SIZE = 8;

  /** Frame header: type (1), payload length (4), CRC32C of type and payload (4). */
  static final int FRAME_HEADER_SIZE = 9;

  static final String CHECKPOINT_PREFIX = "checkpoint.";

  private WalSegments() {}

  static String name(int index) {
    return String.format("%08d", index);
  }

  static Path path(Path dir, int index) {
    return dir.resolve(name(index));
  }

  /** Indexes of the segment files in a directory, ascending. */
  static List<Integer> list(Path dir) throws IOException {
    List<Integer> indexes = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return indexes;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        if (name.length() == 8 && name.chars().allMatch(Character::isDigit)) {
          indexes.add(Integer.parseInt(name));
        }
      }
    }
    indexes.sort(null);
    return indexes;
  }

  static byte[] header() {
    byte[] header = new byte[HEADER_SIZE];
    System.arraycopy(MAGIC, 0, header, 0, 4);
    header[4] = VERSION;
    return header;
  }
}
