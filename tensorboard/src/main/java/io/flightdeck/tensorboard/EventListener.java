package io.flightdeck.tensorboard;

import java.nio.file.Path;
import java.util.List;

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
   * one histogram; a listener that keeps many of them may copy the fields instead of keeping a
   * {@link HistogramPoint}. {@code counts[0, countCount)} are the bucket counts, valid only during
   * the call; {@code limits} is immutable and may be kept.
   */
  default void histogram(
      String tag,
      long step,
      double wallTimeSeconds,
      double min,
      double max,
      double num,
      double sum,
      double sumSquares,
      List<Double> limits,
      double[] counts,
      int countCount) {
    point(
        new HistogramPoint(
            tag,
            step,
            wallTimeSeconds,
            min,
            max,
            num,
            sum,
            sumSquares,
            limits,
            DoubleList.copyOf(counts, countCount)));
  }

  /** Damage in a file; the reader carries on after it. */
  default void corruption(Corruption corruption) {}

  /** The {@code file_version} record that starts every modern file, e.g. {@code brain.Event:2}. */
  default void fileVersion(Path file, String version) {}
}
