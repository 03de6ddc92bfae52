package io.flightdeck.promql.engine;

import io.flightdeck.promql.PromQL;
import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.ParseException;
import io.flightdeck.storage.Queryable;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Evaluates PromQL against a {@link Queryable} with Prometheus's semantics. Thread-safe: one engine
 * serves every query of a server, and at most {@link EngineOptions#maxConcurrentQueries()} run at
 * once; the others wait for a slot (counted against their timeout).
 */
public final class Engine {
  private final EngineOptions options;
  private final Semaphore slots;

  /** The queries evaluating now, shared with this engine's copies, for {@link #cancelAll()}. */
  private final Set<QueryRun> running;

  /** What the running queries of this engine and its copies hold together. */
  private final QueryMemory.Pool memoryPool;

  /** Cancels this copy's queries at their next check when it says so; never for the original. */
  private final BooleanSupplier cancelSignal;

  public Engine(EngineOptions options) {
    this(
        options,
        new Semaphore(options.maxConcurrentQueries(), true),
        ConcurrentHashMap.newKeySet(),
        new QueryMemory.Pool(),
        () -> false);
  }

  private Engine(
      EngineOptions options,
      Semaphore slots,
      Set<QueryRun> running,
      QueryMemory.Pool memoryPool,
      BooleanSupplier cancelSignal) {
    this.options = options;
    this.slots = slots;
    this.running = running;
    this.memoryPool = memoryPool;
    this.cancelSignal = cancelSignal;
  }

  /**
   * Cancels every query this engine (or a copy of it) is evaluating: each fails with {@code
   * canceled} at its next check, within milliseconds. For shutdown, before storage is closed.
   */
  public void cancelAll() {
    for (QueryRun run : running) {
      run.cancel();
    }
  }

  public EngineOptions options() {
    return options;
  }

  /**
   * The same engine (sharing its concurrency limit) with another lookback delta, for the API's
   * {@code lookback_delta} parameter.
   */
  public Engine withLookbackDelta(Duration lookbackDelta) {
    return new Engine(
        options.withLookbackDelta(lookbackDelta), slots, running, memoryPool, cancelSignal);
  }

  /**
   * The same engine whose queries fail as {@code canceled} at their next check once {@code
   * canceled} is true: for a request whose client went away. Checked often, so it must be cheap.
   */
  public Engine withCancellation(BooleanSupplier canceled) {
    return new Engine(options, slots, running, memoryPool, canceled);
  }

  /**
   * The same engine with a shorter timeout, for the API's {@code timeout} parameter; a longer one
   * than the server's is cut to the server's, as in Prometheus.
   */
  public Engine withTimeout(Duration timeout) {
    if (timeout.compareTo(options.timeout()) >= 0) {
      return this;
    }
    return new Engine(options.withTimeout(timeout), slots, running, memoryPool, cancelSignal);
  }

  /**
   * Evaluates {@code query} at one instant (ms).
   *
   * @throws ParseException if the query is not valid PromQL
   * @throws QueryException if evaluation fails (limits, timeout, execution errors)
   */
  public QueryResult instantQuery(Queryable storage, String query, long timeMs) {
    return run(storage, PromQL.parse(query), query, timeMs, timeMs, 0, true);
  }

  /** Evaluates a parsed expression at one instant (ms). */
  public QueryResult instantQuery(Queryable storage, Expr expr, long timeMs) {
    return run(storage, expr, null, timeMs, timeMs, 0, true);
  }

  /**
   * Evaluates {@code query} at every step from {@code startMs} to {@code endMs} inclusive; the
   * result is a matrix (or, for a string expression, an error as in Prometheus).
   *
   * @throws ParseException if the query is not valid PromQL
   * @throws QueryException if evaluation fails
   */
  public QueryResult rangeQuery(
      Queryable storage, String query, long startMs, long endMs, long stepMs) {
    Expr expr = PromQL.parse(query);
    checkRange(startMs, endMs, stepMs);
    return run(storage, expr, query, startMs, endMs, stepMs, false);
  }

  /** Evaluates a parsed expression over a range of steps. */
  public QueryResult rangeQuery(
      Queryable storage, Expr expr, long startMs, long endMs, long stepMs) {
    checkRange(startMs, endMs, stepMs);
    return run(storage, expr, null, startMs, endMs, stepMs, false);
  }

  private static void checkRange(long startMs, long endMs, long stepMs) {
    if (stepMs <= 0) {
      throw new IllegalArgumentException("step must be positive: " + stepMs);
    }
    if (endMs < startMs) {
      throw new IllegalArgumentException("end before start: " + endMs + " < " + startMs);
    }
  }

  /** {@code query} is the text warnings quote, or null to print it from {@code expr}. */
  private QueryResult run(
      Queryable storage,
      Expr expr,
      String query,
      long startMs,
      long endMs,
      long stepMs,
      boolean instant) {
    long queued = System.nanoTime();
    long deadline = queued + options.timeout().toNanos();
    acquireSlot(deadline);
    try {
      long started = System.nanoTime();
      String text = query != null ? query : expr.toString();
      QueryRun run =
          new QueryRun(
              storage,
              options,
              expr,
              startMs,
              endMs,
              stepMs,
              instant,
              deadline,
              text,
              memoryPool,
              cancelSignal);
      running.add(run);
      QueryValue value;
      try {
        value = run.execute();
      } finally {
        running.remove(run);
      }
      long finished = System.nanoTime();
      QueryStats stats =
          new QueryStats(
              (started - queued) / 1e9,
              (finished - started) / 1e9,
              run.samplesRead(),
              run.peakSamples());
      return new QueryResult(value, run.warnings(), run.infos(), stats);
    } catch (StackOverflowError e) {
      // The parser's depth limit leaves room on a default stack, but a caller deep in its own
      // stack may still run out; the query's resources were closed as the stack unwound.
      throw new QueryException(
          QueryException.Kind.BAD_DATA,
          "query nests too deeply to evaluate on this thread's stack");
    } finally {
      slots.release();
    }
  }

  private void acquireSlot(long deadline) {
    try {
      if (!slots.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
        throw new QueryException(QueryException.Kind.TIMEOUT, "query timed out in query queue");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QueryException(QueryException.Kind.CANCELED, "query was canceled in query queue");
    }
  }
}
