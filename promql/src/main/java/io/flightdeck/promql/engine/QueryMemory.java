package io.flightdeck.promql.engine;

import io.flightdeck.model.ByteSizeFormat;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory one query holds, charged as its buffers grow (series points, raw samples, aggregation
 * cells) and checked at each charge against the query's limit and against what all running queries
 * may hold together; past either the query stops with an {@code execution} error naming the limit,
 * before the allocation is made. Thread-safe: {@link SeriesFanOut} workers charge the same query.
 */
final class QueryMemory {
  /** Bytes of one point: its timestamp and its value. */
  static final int POINT_BYTES = 16;

  /** What the queries running at once hold together; one per engine and its copies. */
  static final class Pool {
    private final AtomicLong used = new AtomicLong();

    long used() {
      return used.get();
    }
  }

  private final long limit;
  private final long totalLimit;
  private final Pool pool;
  private final AtomicLong held = new AtomicLong();
  private final AtomicLong peak = new AtomicLong();

  QueryMemory(long limit, long totalLimit, Pool pool) {
    this.limit = limit;
    this.totalLimit = totalLimit;
    this.pool = pool;
  }

  /** Accounts for {@code bytes} about to be allocated; throws instead when a limit would pass. */
  void charge(long bytes) {
    if (bytes <= 0) {
      return;
    }
    long now = held.addAndGet(bytes);
    if (now > limit) {
      held.addAndGet(-bytes);
      throw new QueryException(
          QueryException.Kind.EXECUTION,
          "query processing would use too much memory in query execution: more than "
              + ByteSizeFormat.format(limit)
              + " (--query.max-memory)");
    }
    if (pool.used.addAndGet(bytes) > totalLimit) {
      pool.used.addAndGet(-bytes);
      held.addAndGet(-bytes);
      throw new QueryException(
          QueryException.Kind.EXECUTION,
          "queries running at once would use too much memory in query execution: more than "
              + ByteSizeFormat.format(totalLimit)
              + " together (--query.max-memory-total)");
    }
    peak.accumulateAndGet(now, Math::max);
  }

  /** Returns {@code bytes} no longer held. */
  void release(long bytes) {
    if (bytes > 0) {
      held.addAndGet(-bytes);
      pool.used.addAndGet(-bytes);
    }
  }

  /** Returns everything to the pool; the query is over. */
  void close() {
    pool.used.addAndGet(-held.getAndSet(0));
  }

  long peak() {
    return peak.get();
  }
}
