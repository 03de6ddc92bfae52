package io.flightdeck.tsdb.block;

import io.flightdeck.tsdb.encoding.CorruptDataException;
import io.flightdeck.tsdb.encoding.Decbuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/** Reads chunk records from a block's memory-mapped chunk files. Thread-safe. */
final class ChunkReader {
  /**
   * A chunk's encoding, sample count and bytes ({@code data[0, length)}). One per reading iterator,
   * refilled chunk after chunk so that a read allocates nothing.
   */
  static final class Chunk {
    int encoding;
    int count;
    int length;
    byte[] data = new byte[256];
  }

  private final Path dir;
  private final TreeMap<Integer, MappedByteBuffer> files = new TreeMap<>();
  private final long totalBytes;

  ChunkReader(Path blockDir) throws IOException {
    this.dir = blockDir.resolve(ChunkFiles.DIR);
    long total = 0;
    if (Files.isDirectory(dir)) {
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
        for (Path file : entries) {
          int index = Integer.parseInt(file.getFileName().toString());
          try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            MappedByteBuffer buffer = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
            byte[] magic = new byte[4];
            if (buffer.limit() < ChunkFiles.HEADER_SIZE) {
              throw new CorruptDataException("chunk file too short: " + file);
            }
            buffer.get(0, magic);
            if (!Arrays.equals(magic, ChunkFiles.MAGIC) || buffer.get(4) != ChunkFiles.VERSION) {
              throw new CorruptDataException("bad magic or version in chunk file " + file);
            }
            files.put(index, buffer);
            total += channel.size();
          }
        }
      } catch (NumberFormatException e) {
        throw new CorruptDataException("unexpected file in " + dir, e);
      }
    }
    this.totalBytes = total;
  }

  long totalBytes() {
    return totalBytes;
  }

  /** Reads the chunk at {@code ref} into {@code into}, checking its CRC. */
  void read(long ref, Chunk into) {
    MappedByteBuffer file = files.get(ChunkFiles.file(ref));
    if (file == null) {
      throw new CorruptDataException(
          "chunk reference to missing file " + ChunkFiles.file(ref) + " in " + dir);
    }
    int offset = ChunkFiles.offset(ref);
    ByteBuffer view = file.duplicate();
    Decbuf in = new Decbuf(view);
    in.position(offset);
    int encoding = in.getByte();
    int count = in.getUvarintInt();
    int length = in.getUvarintInt();
    if (length > in.remaining()) {
      // Checked before the buffer grows: a length written wrong must not size an allocation.
      throw new CorruptDataException(
          "chunk of "
              + length
              + " bytes runs past the end of its file in "
              + dir
              + " at "
              + offset);
    }
    if (into.data.length < length) {
      into.data = new byte[Math.max(length, into.data.length * 2)];
    }
    in.getBytes(into.data, 0, length);
    int stored = in.getInt();
    CRC32C crc = new CRC32C();
    ByteBuffer covered = file.duplicate();
    covered.position(offset).limit(in.position() - 4);
    crc.update(covered);
    if ((int) crc.getValue() != stored) {
      throw new CorruptDataException(
          "chunk checksum mismatch in "
              + dir.resolve(ChunkFiles.name(ChunkFiles.file(ref)))
              + " at offset "
              + offset);
    }
    into.encoding = encoding;
    into.count = count;
    into.length = length;
  }
}
