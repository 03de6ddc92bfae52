package io.flightdeck.tsdb.block;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.tsdb.encoding.CorruptDataException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lengths and counts written wrong in block files (found by fuzzing) fail as corrupt data before
 * anything is sized from them.
 */
class WrongLengthsTest {
  @TempDir Path block;

  @Test
  void aChunkLongerThanItsFileIsCorruptNotAnAllocation() throws Exception {
    Files.createDirectories(block.resolve(ChunkFiles.DIR));
    byte[] file = {
      'F',
      'D',
      'C',
      'H',
      ChunkFiles.VERSION,
      0,
      0,
      0, // header
      1, // encoding
      12, // sample count
      (byte) 0xff,
      (byte) 0xff,
      (byte) 0xff,
      (byte) 0xff,
      0x07, // length: 2^31 - 1 bytes
      1,
      2,
      3
    };
    Files.write(block.resolve(ChunkFiles.DIR).resolve(ChunkFiles.name(1)), file);
    ChunkReader reader = new ChunkReader(block);

    assertThatThrownBy(
            () -> reader.read(ChunkFiles.ref(1, ChunkFiles.HEADER_SIZE), new ChunkReader.Chunk()))
        .isInstanceOf(CorruptDataException.class)
        .hasMessageContaining("chunk of 2147483647 bytes runs past the end of its file");
  }
}
