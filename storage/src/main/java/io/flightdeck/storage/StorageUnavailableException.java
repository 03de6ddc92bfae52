package io.flightdeck.storage;

/**
 * The store cannot take writes right now (disk full, I/O error, shutting down). Nothing of the
 * failed batch was acknowledged; retrying later may succeed, so HTTP answers 503.
 */
public final class StorageUnavailableException extends StorageException {
  private static final long serialVersionUID = 1L;

  public StorageUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
