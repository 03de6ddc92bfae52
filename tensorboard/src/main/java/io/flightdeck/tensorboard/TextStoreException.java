package io.flightdeck.tensorboard;

import java.nio.file.Path;

/** The text store's file cannot be read, written or recognised. */
public class TextStoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TextStoreException(Path file, String message, Throwable cause) {
    super(message + " [file=" + file + "]", cause);
  }
}
