package io.flightdeck.promql.engine;

/**
 * Counts the samples a query holds in memory against {@code --query.max-samples}, and what it read
 * from storage, for {@link QueryStats}. Not thread-safe: one query, one thread.
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

  void take(long samples) {
    current += samples;
    if (current > peak) {
      peak = current;
    }
    if (current > max) {
      throw new QueryException(QueryException.Kind.EXECUTION, TOO_MANY_SAMPLES);
    }
  }

  void release(long samples) {
    current -= samples;
  }

  void countRead(long samples) {
    read += samples;
  }

  long peak() {
    return peak;
  }

  long read() {
    return read;
  }
}
