package io.flightdeck.tsdb.block;

/** Constants of the block index file (tsdb/docs/formats.md, "Block index"). */
final class IndexFormat {
  static final byte[] MAGIC = {'F', 'D', 'I', 'X'};
  static final int VERSION = 1;
  static final int HEADER_SIZE = 8;
  static final String FILE = "index";

  /** Table of contents: five 8-byte section offsets, then the 4-byte CRC32C of the file. */
  static final int TOC_SIZE = 5 * 8;

  private IndexFormat() {}
}
