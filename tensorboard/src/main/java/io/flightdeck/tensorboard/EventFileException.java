package io.flightdeck.tensorboard;

import java.nio.file.Path;

/**
 * An event file could not be read at all (gone, unreadable). Damaged content is not an exception:
 * it arrives as a {@link Corruption}.
 */
public class EventFileException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public EventFileException(Path file, String message, Throwable cause) {
    super(message + " [file=" + file + "]", cause);
  }
}
