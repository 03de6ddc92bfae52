package io.flightdeck.tensorboard;

import java.nio.file.Path;

/**
 * Damage found in an event file. The reader reports it and goes on with the next good record where
 * it can find one, so one corruption costs the records it covers and nothing after them.
 *
 * @param offset byte offset of the damaged record's first byte
 */
public record Corruption(Path file, long offset, Kind kind, String detail) {

  /** What was wrong; the kind also says how the reader found its way back. */
  public enum Kind {
    /**
     * The CRC of the 8 length bytes does not match, so the length cannot be trusted. The reader
     * scans forward byte by byte for the next offset where a length and its CRC agree and the
     * record's data CRC agrees too, and continues there.
     */
    BAD_LENGTH_CRC,
    /** The length is sound but the data CRC is not: the record is skipped by its length. */
    BAD_DATA_CRC,
    /** A length with a sound CRC but beyond what this reader accepts: skipped by its length. */
    OVERSIZED_RECORD,
    /** The record's CRCs agree but its bytes are not a valid Event protobuf: it is skipped. */
    BAD_EVENT
  }

  @Override
  public String toString() {
    return kind + " at " + file + ":" + offset + ": " + detail;
  }
}
