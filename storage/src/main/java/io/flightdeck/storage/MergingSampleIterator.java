package io.flightdeck.storage;

import java.util.List;

/**
 * Merges time-ordered iterators into one; when several hold the same timestamp, the sample of the
 * earliest iterator in the list wins and the others are skipped.
 */
public final class MergingSampleIterator implements SampleIterator {
  private final SampleIterator[] iterators;

  /** Whether iterators[i] is positioned on a valid sample. */
  private final boolean[] valid;

  private boolean started;
  private int current = -1;

  public MergingSampleIterator(List<SampleIterator> iterators) {
    this.iterators = iterators.toArray(new SampleIterator[0]);
    this.valid = new boolean[this.iterators.length];
  }

  @Override
  public boolean next() {
    if (!started) {
      started = true;
      for (int i = 0; i < iterators.length; i++) {
        valid[i] = iterators[i].next();
      }
    } else if (current >= 0) {
      long t = iterators[current].timestamp();
      for (int i = 0; i < iterators.length; i++) {
        if (valid[i] && iterators[i].timestamp() == t) {
          valid[i] = iterators[i].next();
        }
      }
    }
    return pickSmallest();
  }

  @Override
  public boolean seek(long t) {
    if (started && current >= 0 && iterators[current].timestamp() >= t) {
      return true;
    }
    started = true;
    for (int i = 0; i < iterators.length; i++) {
      valid[i] = iterators[i].seek(t);
    }
    return pickSmallest();
  }

  private boolean pickSmallest() {
    current = -1;
    long best = Long.MAX_VALUE;
    for (int i = 0; i < iterators.length; i++) {
      if (valid[i] && (current < 0 || iterators[i].timestamp() < best)) {
        best = iterators[i].timestamp();
        current = i;
      }
    }
    return current >= 0;
  }

  @Override
  public long timestamp() {
    return iterators[current].timestamp();
  }

  @Override
  public double value() {
    return iterators[current].value();
  }
}
