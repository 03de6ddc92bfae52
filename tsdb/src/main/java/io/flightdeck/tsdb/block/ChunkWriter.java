package io.flightdeck.tsdb.block;

import io.flightdeck.tsdb.encoding.Encbuf;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Appends chunk records to a block's chunk files, starting a new file past 512 MiB. */
final class ChunkWriter implements AutoCloseable {
  private final Path dir;
  private final Encbuf record = new Encbuf(512);
  private OutputStream out;
  private int fileIndex;
  private long offset;

  ChunkWriter(Path blockDir) throws IOException {
    this.dir = blockDir.resolve(ChunkFiles.DIR);
    Files.createDirectories(dir);
  }

  /** Writes the chunk in {@code data[from, from + length)} and returns its reference. */
  long write(int encoding, int sampleCount, byte[] data, int from, int length) throws IOException {
    record.reset().putByte(encoding).putUvarint(sampleCount).putUvarint(length);
    record.putBytes(data, from, length);
    record.putInt(record.crc32c(0, record.length()));
    if (out == null || offset + record.length() > ChunkFiles.MAX_FILE_SIZE) {
      openNext();
    }
    long ref = ChunkFiles.ref(fileIndex, offset);
    out.write(record.array(), 0, record.length());
    offset += record.length();
    return ref;
  }

  private void openNext() throws IOException {
    finishFile();
    fileIndex++;
    out =
        new BufferedOutputStream(
            Files.newOutputStream(dir.resolve(ChunkFiles.name(fileIndex))), 1 << 16);
    out.write(ChunkFiles.MAGIC);
    out.write(new byte[] {ChunkFiles.VERSION, 0, 0, 0});
    offset = ChunkFiles.HEADER_SIZE;
  }

  private void finishFile() throws IOException {
    if (out != null) {
      out.close();
      try (FileChannel channel =
          FileChannel.open(dir.resolve(ChunkFiles.name(fileIndex)), StandardOpenOption.WRITE)) {
        channel.force(true);
      }
      out = null;
    }
  }

  @Override
  public void close() throws IOException {
    finishFile();
  }
}
