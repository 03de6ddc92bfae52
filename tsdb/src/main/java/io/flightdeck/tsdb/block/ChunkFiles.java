package io.flightdeck.tsdb.block;

/**
 * Constants of the block chunk files ({@code chunks/000001}...; tsdb/docs/formats.md, "Block
 * chunks"). A chunk reference is the file number in the high 32 bits and the byte offset of the
 * chunk record in the low 32 bits.
 */
final class ChunkFiles {
  static final byte[] MAGIC = {'F', 'D', 'C', 'H'};
  static final int VERSION = 1;
  static final int HEADER_SIZE = 8;
  static final long MAX_FILE_SIZE = 512L << 20;

  /** Samples per block chunk: larger than the head's 120, so zstd has room to work. */
  static final int SAMPLES_PER_CHUNK = 1024;

  static final String DIR = "chunks";

  private ChunkFiles() {}

  static String name(int index) {
    return String.format("%06d", index);
  }

  static long ref(int file, long offset) {
    return ((long) file << 32) | offset;
  }

  static int file(long ref) {
    return (int) (ref >>> 32);
  }

  static int offset(long ref) {
    return (int) ref;
  }
}
