package io.flightdeck.promql.engine;

/**
 * Counts the samples a query holds in memory against {@code --query.max-samples}, and what it read
 * from storage, for {@link QueryStats}. Thread-safe: {@link SeriesFanOut} workers share it.
 */
final class SampleBudget {
  static final String TOO_MANY_SAMPLES =
      "query processing would load too many samples into memory in query execution";

  private final long max;
  private long current;
  private long peak;
  private long read;

  SampleBudget(long max) {
    this.max = max;
  }

  synchronized void take(long samples) {
    current += samples;
    if (current > peak) {
      peak = current;
    }
    if (current > max) {
      throw new QueryException(QueryException.Kind.EXECUTION, TOO_MANY_SAMPLES);
    }
  }

  synchronized void release(long samples) {
    current -= samples;
  }

  synchronized void countRead(long samples) {
    read += samples;
  }

  synchronized long peak() {
    return peak;
  }

  synchronized long read() {
    return read;
  }
}
