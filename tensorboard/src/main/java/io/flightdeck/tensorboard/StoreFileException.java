package io.flightdeck.tensorboard;

import java.nio.file.Path;

/**
 * A TensorBoard side store's file (texts, images, hparams) cannot be read, written or recognised.
 */
public class StoreFileException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StoreFileException(Path file, String message, Throwable cause) {
    super(message + " [file=" + file + "]", cause);
  }
}
