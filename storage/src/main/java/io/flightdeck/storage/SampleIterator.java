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
