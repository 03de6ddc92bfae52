package io.flightdeck.storage;

/**
 * Walks samples in increasing timestamp order, one timestamp at most once. Not thread-safe. Values
 * are exact, stale markers and NaN included.
 */
public interface SampleIterator {
  /** Advances to the next sample; false when exhausted. */
  boolean next();

  /**
   * Advances to the first sample with timestamp {@code >= t}; never moves backwards: if the current
   * sample already satisfies it, stays. Returns false when no such sample exists.
   */
  boolean seek(long t);

  long timestamp();

  double value();

  /**
   * Appends the current sample and every later one up to {@code maxt} to {@code out}. Call it only
   * while positioned on a sample (after {@link #next} or {@link #seek} returned true); afterwards
   * the iterator is used up. Returns true when it stopped at a sample after {@code maxt}, false
   * when it ran out of samples. Storage iterators override it to copy a chunk in one loop instead
   * of a few interface calls per sample: range queries read millions of samples this way.
   */
  default boolean drainTo(SampleBuffer out, long maxt) {
    do {
      long t = timestamp();
      if (t > maxt) {
        return true;
      }
      out.add(t, value());
    } while (next());
    return false;
  }

  SampleIterator EMPTY =
      new SampleIterator() {
        @Override
        public boolean next() {
          return false;
        }

        @Override
        public boolean seek(long t) {
          return false;
        }

        @Override
        public long timestamp() {
          throw new IllegalStateException("empty iterator");
        }

        @Override
        public double value() {
          throw new IllegalStateException("empty iterator");
        }
      };
}
