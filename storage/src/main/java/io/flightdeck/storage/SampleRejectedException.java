package io.flightdeck.storage;

/**
 * One sample or series refused on its own merits; the rest of the batch goes on. Each subclass is
 * one reason, and {@link #reason()} is the stable name under which rejections are counted.
 */
public abstract class SampleRejectedException extends StorageException {
  private static final long serialVersionUID = 1L;

  protected SampleRejectedException(String message) {
    super(message);
  }

  /** A short stable name for metrics labels, e.g. {@code out_of_order}. */
  public abstract String reason();
}
