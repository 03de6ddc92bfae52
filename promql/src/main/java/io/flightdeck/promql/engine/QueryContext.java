package io.flightdeck.promql.engine;

import io.flightdeck.storage.Querier;
import java.util.function.BooleanSupplier;

/**
 * What every evaluator of one query shares, subqueries included: the storage snapshot, limits,
 * annotations and the instants {@code start()}, {@code end()}, {@code step()} refer to.
 */
final class QueryContext {
  final Querier querier;
  final EngineOptions options;
  final SampleBudget budget;
  final QueryMemory memory;
  final Annotations annotations = new Annotations();
  final long deadlineNanos;
  final long queryStart;
  final long queryEnd;
  final long queryStep;
  final boolean delayedNameRemoval;
  private int checks;
  private volatile boolean canceled;
  private BooleanSupplier cancelSignal = () -> false;

  QueryContext(
      Querier querier,
      EngineOptions options,
      long deadlineNanos,
      long queryStart,
      long queryEnd,
      long queryStep) {
    this(querier, options, deadlineNanos, queryStart, queryEnd, queryStep, new QueryMemory.Pool());
  }

  /** {@code memoryPool} holds what all queries of the engine hold together. */
  QueryContext(
      Querier querier,
      EngineOptions options,
      long deadlineNanos,
      long queryStart,
      long queryEnd,
      long queryStep,
      QueryMemory.Pool memoryPool) {
    this.querier = querier;
    this.options = options;
    this.budget = new SampleBudget(options.maxSamples());
    this.memory =
        new QueryMemory(
            options.maxQueryMemoryBytes(), options.maxTotalQueryMemoryBytes(), memoryPool);
    this.deadlineNanos = deadlineNanos;
    this.queryStart = queryStart;
    this.queryEnd = queryEnd;
    this.queryStep = queryStep;
    this.delayedNameRemoval = options.delayedNameRemoval();
  }

  long lookbackMs() {
    return options.lookbackDelta().toMillis();
  }

  /** Also fails the query at a check once {@code signal} says so (its client went away). */
  void cancelWhen(BooleanSupplier signal) {
    this.cancelSignal = signal;
  }

  /** Makes the query fail at its next check, from any thread (the server is stopping). */
  void cancel() {
    canceled = true;
  }

  /**
   * Fails the query once it has run past its timeout, was canceled or its thread was interrupted.
   * Every loop whose length the query or the data decides calls this (per series, per step).
   */
  void checkDeadline() {
    // SeriesFanOut's workers race on this count: that only spaces their checks differently.
    if ((++checks & 63) != 0) {
      return;
    }
    if (canceled || Thread.currentThread().isInterrupted() || cancelSignal.getAsBoolean()) {
      throw new QueryException(
          QueryException.Kind.CANCELED, "query was canceled in expression evaluation");
    }
    if (System.nanoTime() - deadlineNanos > 0) {
      throw new QueryException(
          QueryException.Kind.TIMEOUT, "query timed out in expression evaluation");
    }
  }
}
