package io.flightdeck.tsdb.encoding;

import io.flightdeck.storage.StorageException;

/** Bytes on disk that do not decode as their format says: a torn write or a damaged file. */
public final class CorruptDataException extends StorageException {
  private static final long serialVersionUID = 1L;

  public CorruptDataException(String message) {
    super(message);
  }

  public CorruptDataException(String message, Throwable cause) {
    super(message, cause);
  }
}
