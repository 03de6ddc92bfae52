package io.flightdeck.storage;

/**
 * Base of the storage failures. Messages end with {@code [key=value ...]} context so a log line or
 * an HTTP error names the series, file or limit involved.
 */
public class StorageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StorageException(String message) {
    super(message);
  }

  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Formats {@code message [k1=v1 k2=v2]} from alternating keys and values. */
  public static String withContext(String message, Object... keysAndValues) {
    StringBuilder sb = new StringBuilder(message).append(" [");
    for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
      if (i > 0) {
        sb.append(' ');
      }
      sb.append(keysAndValues[i]).append('=').append(keysAndValues[i + 1]);
    }
    return sb.append(']').toString();
  }
}
