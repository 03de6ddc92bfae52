package io.flightdeck.tsdb.block;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.tsdb.chunk.ChunkCorruptException;
import io.flightdeck.tsdb.chunk.ChunkDecoder;
import io.flightdeck.tsdb.encoding.CorruptDataException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Coverage-guided fuzzing of the block readers (Jazzer): the index and the chunk files. Without
 * {@code JAZZER_FUZZ} this replays the committed inputs in {@code BlockJazzerFuzzTestInputs/
 * <method>}; {@code ./run-tests --fuzz block-index block-chunks} explores from them
 * (docs/testing.md).
 *
 * <p>An input's first byte picks what the rest is. Even: the file itself. Odd: content given
 * correct checksums here (the fuzzer cannot compute CRC32C), so that the decoding behind the
 * checksums is reached: a file that was written wrong rather than damaged since.
 */
class BlockJazzerFuzzTest {
  /** One block directory, its files rewritten for every input. */
  private static final Path BLOCK = newBlockDirectory();

  /**
   * A damaged index fails to open, or a series fails to decode, with {@link CorruptDataException}
   * and nothing else; no allocation is sized beyond what the file holds.
   */
  @FuzzTest(maxDuration = "30s")
  void blockIndex(byte[] input) throws IOException {
    if (input.length == 0) {
      return;
    }
    byte[] index = Arrays.copyOfRange(input, 1, input.length);
    if ((input[0] & 1) == 1) {
      index = withChecksum(index);
    }
    Files.write(BLOCK.resolve(IndexFormat.FILE), index);
    try {
      IndexReader reader = new IndexReader(BLOCK);
      for (int id = 0; id < reader.numSeries(); id++) {
        List<ChunkMeta> chunks = new ArrayList<>();
        assertThat(reader.series(id, chunks)).isNotNull();
      }
    } catch (CorruptDataException e) {
      assertThat(e.getMessage()).isNotBlank();
    }
  }

  /**
   * Reading the chunks of a damaged chunk file one after another, and decoding their samples, fails
   * only with {@link CorruptDataException}; no allocation is sized beyond the file.
   */
  @FuzzTest(maxDuration = "30s")
  void blockChunks(byte[] input) throws IOException {
    if (input.length == 0) {
      return;
    }
    byte[] file =
        (input[0] & 1) == 0 ? Arrays.copyOfRange(input, 1, input.length) : framedChunks(input);
    Files.write(BLOCK.resolve(ChunkFiles.DIR).resolve(ChunkFiles.name(1)), file);
    try {
      ChunkReader reader = new ChunkReader(BLOCK);
      ChunkReader.Chunk chunk = new ChunkReader.Chunk();
      ChunkDecoder decoder = new ChunkDecoder();
      int offset = ChunkFiles.HEADER_SIZE;
      while (offset < file.length) {
        reader.read(ChunkFiles.ref(1, offset), chunk);
        SampleIterator samples =
            decoder.decode(chunk.encoding, chunk.data, 0, chunk.length, chunk.count, chunk.count);
        long read = 0;
        while (samples.next()) {
          read++;
        }
        assertThat(read).isLessThanOrEqualTo(chunk.count);
        offset += recordSize(chunk);
      }
    } catch (CorruptDataException | ChunkCorruptException e) {
      assertThat(e.getMessage()).isNotBlank();
    }
  }

  /** The body followed by its CRC32C, as an index ends. */
  private static byte[] withChecksum(byte[] body) {
    CRC32C crc = new CRC32C();
    crc.update(body);
    return ByteBuffer.allocate(body.length + 4).put(body).putInt((int) crc.getValue()).array();
  }

  /**
   * Chunk records from the input: each an encoding byte, a sample-count byte and a two-byte
   * little-endian length before its data, written as the chunk writer does with a correct CRC32C.
   */
  private static byte[] framedChunks(byte[] input) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(ChunkFiles.MAGIC);
    out.writeBytes(new byte[] {ChunkFiles.VERSION, 0, 0, 0});
    int at = 1;
    while (at + 4 <= input.length) {
      int from = at + 4;
      int to =
          Math.min(input.length, from + ((input[at + 2] & 0xff) | (input[at + 3] & 0xff) << 8));
      ByteArrayOutputStream record = new ByteArrayOutputStream();
      record.write(input[at]);
      writeUvarint(record, input[at + 1] & 0xff);
      writeUvarint(record, to - from);
      record.write(input, from, to - from);
      byte[] bytes = record.toByteArray();
      CRC32C crc = new CRC32C();
      crc.update(bytes);
      out.writeBytes(bytes);
      out.writeBytes(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
      at = to;
    }
    return out.toByteArray();
  }

  /** Bytes a chunk record takes: encoding, two uvarints, the data and the checksum. */
  private static int recordSize(ChunkReader.Chunk chunk) {
    return 1 + uvarintSize(chunk.count) + uvarintSize(chunk.length) + chunk.length + 4;
  }

  private static int uvarintSize(long value) {
    int size = 1;
    while ((value >>>= 7) != 0) {
      size++;
    }
    return size;
  }

  private static void writeUvarint(ByteArrayOutputStream out, long value) {
    while ((value & ~0x7FL) != 0) {
      out.write((int) (value & 0x7F) | 0x80);
      value >>>= 7;
    }
    out.write((int) value);
  }

  private static Path newBlockDirectory() {
    try {
      Path directory = Files.createTempDirectory("block-fuzz");
      Files.createDirectories(directory.resolve(ChunkFiles.DIR));
      return directory;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
