package io.flightdeck.tensorboard;

import java.nio.file.Path;

/**
 * Receives what a reader decodes, in file order, on the reading thread. Points are immutable and
 * may be kept.
 */
public interface EventListener {
  void point(SummaryPoint point);

  /**
   * A scalar, handed over as fields by the reader's shortcut for the commonest events; a listener
   * that keeps millions of them may store the fields instead of a {@link ScalarPoint}.
   */
  default void scalar(String tag, long step, double wallTimeSeconds, double value) {
    point(new ScalarPoint(tag, step, wallTimeSeconds, value));
  }

  /**
   * A legacy {@code histo} histogram, handed over as fields by the reader's shortcut for events of
   * one histogram, valid only during the call (see {@link HistogramFields}).
   */
  default void histogram(HistogramFields histogram) {
    point(histogram.toPoint());
  }

  /** Damage in a file; the reader carries on after it. */
  default void corruption(Corruption corruption) {}

  /** The {@code file_version} record that starts every modern file, e.g. {@code brain.Event:2}. */
  default void fileVersion(Path file, String version) {}
}
