package io.flightdeck.bench;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The encoded workload on disk, so every peer receives byte-identical requests. Big-endian layout:
 *
 * <pre>
 * header:  "FDRW" | int version=1 | int series | int slices | int chunks | long samples
 *          | long startMs | long intervalMs
 * request: int slice | int chunk | int samples | int length | length bytes of snappy body
 * </pre>
 *
 * Requests follow in slice order, chunks in order within a slice: {@code slices * chunks} of them.
 * Chunk {@code c} holds the same series in every slice. Reads are positional, so threads may share
 * one open file.
 */
final class RequestFile implements Closeable {

  private static final int MAGIC = 0x46445257; // "FDRW"
  private static final int VERSION = 1;
  private static final int HEADER_BYTES = 4 + 4 + 4 + 4 + 4 + 8 + 8 + 8;
  private static final int REQUEST_HEADER_BYTES = 16;

  /** One stored request body and the number of samples in it. */
  record Request(int slice, int chunk, int samples, byte[] body) {}

  private final FileChannel channel;
  private final int series;
  private final int slices;
  private final int chunks;
  private final long samples;
  private final long[] offsets;

  private RequestFile(FileChannel channel) throws IOException {
    this.channel = channel;
    ByteBuffer header = readFully(0, HEADER_BYTES);
    if (header.getInt() != MAGIC || header.getInt() != VERSION) {
      throw new IOException("not a version " + VERSION + " request file");
    }
    series = header.getInt();
    slices = header.getInt();
    chunks = header.getInt();
    samples = header.getLong();
    offsets = new long[Math.multiplyExact(slices, chunks)];
    long position = HEADER_BYTES;
    for (int i = 0; i < offsets.length; i++) {
      offsets[i] = position;
      ByteBuffer request = readFully(position, REQUEST_HEADER_BYTES);
      position += REQUEST_HEADER_BYTES + request.getInt(12);
    }
  }

  static RequestFile open(Path path) throws IOException {
    return new RequestFile(FileChannel.open(path, StandardOpenOption.READ));
  }

  int series() {
    return series;
  }

  int slices() {
    return slices;
  }

  int chunks() {
    return chunks;
  }

  long samples() {
    return samples;
  }

  Request read(int slice, int chunk) throws IOException {
    long offset = offsets[slice * chunks + chunk];
    ByteBuffer header = readFully(offset, REQUEST_HEADER_BYTES);
    int storedSlice = header.getInt();
    int storedChunk = header.getInt();
    int sampleCount = header.getInt();
    int length = header.getInt();
    if (storedSlice != slice || storedChunk != chunk) {
      throw new IOException("request file out of order at slice " + slice + " chunk " + chunk);
    }
    byte[] body = readFully(offset + REQUEST_HEADER_BYTES, length).array();
    return new Request(slice, chunk, sampleCount, body);
  }

  private ByteBuffer readFully(long position, int length) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(length);
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, position + buffer.position()) < 0) {
        throw new EOFException("request file truncated at byte " + (position + buffer.position()));
      }
    }
    return buffer.flip();
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }

  /** Writes a request file; requests must be appended in the order the layout prescribes. */
  static final class Writer implements Closeable {

    private final DataOutputStream out;

    Writer(Path path, Workload workload, int chunks) throws IOException {
      out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(path), 1 << 20));
      out.writeInt(MAGIC);
      out.writeInt(VERSION);
      out.writeInt(workload.series().size());
      out.writeInt(workload.slices());
      out.writeInt(chunks);
      out.writeLong(workload.samples());
      out.writeLong(workload.startMs());
      out.writeLong(workload.intervalMs());
    }

    void append(Request request) throws IOException {
      out.writeInt(request.slice());
      out.writeInt(request.chunk());
      out.writeInt(request.samples());
      out.writeInt(request.body().length);
      out.write(request.body());
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }
}
