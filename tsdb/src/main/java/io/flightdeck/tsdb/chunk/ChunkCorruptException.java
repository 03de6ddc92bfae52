package io.flightdeck.tsdb.chunk;

import io.flightdeck.storage.StorageException;

/** Chunk bytes that do not decode: a torn write or a damaged file. */
public final class ChunkCorruptException extends StorageException {
  private static final long serialVersionUID = 1L;

  public ChunkCorruptException(String message) {
    super(message);
  }
}
