package io.flightdeck.promql.engine;

import java.time.Duration;

/**
 * Evaluation limits and defaults, named after Prometheus's flags: {@code --query.lookback-delta}
 * (5m), {@code --query.max-samples} (50,000,000), {@code --query.timeout} (2m) and {@code
 * --query.max-concurrency} (20). {@code defaultSubqueryStep} is the step of a subquery written
 * without one: the global evaluation interval (1m). {@code delayedNameRemoval} is Prometheus's
 * {@code promql-delayed-name-removal} feature: {@code __name__} is dropped at the end of evaluation
 * instead of by each function, so {@code label_replace} can still read it (off by default, as in
 * Prometheus; its own test scripts turn it on). {@code parallelism} spreads the per-series work of
 * a large selection over threads, as VictoriaMetrics's {@code -search.maxWorkersPerQuery} does
 * (Prometheus evaluates on one thread). {@code maxQueryMemoryBytes} ({@code --query.max-memory})
 * and {@code maxTotalQueryMemoryBytes} bound the memory one query and all running queries hold
 * ({@link QueryMemory}); Prometheus bounds only samples.
 */
public record EngineOptions(
    Duration lookbackDelta,
    long maxSamples,
    Duration timeout,
    int maxConcurrentQueries,
    Duration defaultSubqueryStep,
    boolean delayedNameRemoval,
    Parallelism parallelism,
    long maxQueryMemoryBytes,
    long maxTotalQueryMemoryBytes) {

  /**
   * At most {@code maxWorkers} threads per query, its own included, each claiming {@code
   * seriesPerBatch} series at a time. A selection of fewer than two batches stays on the query's
   * thread: handing work to another thread costs tens of microseconds on a busy machine. One worker
   * by default, as in Prometheus: on a 2-core machine the dashboard benchmark's queries were no
   * faster with two (bench/README.md), and a dashboard's concurrent panels already fill the cores.
   */
  public record Parallelism(int maxWorkers, int seriesPerBatch) {
    public static final Parallelism DEFAULT = new Parallelism(1, 32);

    public Parallelism {
      if (maxWorkers <= 0 || seriesPerBatch <= 0) {
        throw new IllegalArgumentException(
            "query workers and series per batch must be positive: "
                + maxWorkers
                + ", "
                + seriesPerBatch);
      }
    }
  }

  public static final EngineOptions DEFAULT =
      new EngineOptions(
          Duration.ofMinutes(5),
          50_000_000,
          Duration.ofMinutes(2),
          20,
          Duration.ofMinutes(1),
          false,
          Parallelism.DEFAULT);

  /**
   * The options without memory limits of their own: each query may hold a quarter of the heap, and
   * the queries running at once half of it.
   */
  public EngineOptions(
      Duration lookbackDelta,
      long maxSamples,
      Duration timeout,
      int maxConcurrentQueries,
      Duration defaultSubqueryStep,
      boolean delayedNameRemoval,
      Parallelism parallelism) {
    this(
        lookbackDelta,
        maxSamples,
        timeout,
        maxConcurrentQueries,
        defaultSubqueryStep,
        delayedNameRemoval,
        parallelism,
        Runtime.getRuntime().maxMemory() / 4,
        Runtime.getRuntime().maxMemory() / 2);
  }

  public EngineOptions {
    if (lookbackDelta.isNegative() || lookbackDelta.isZero()) {
      throw new IllegalArgumentException("lookback delta must be positive: " + lookbackDelta);
    }
    if (maxSamples <= 0 || maxConcurrentQueries <= 0) {
      throw new IllegalArgumentException("query limits must be positive");
    }
    if (defaultSubqueryStep.isNegative() || defaultSubqueryStep.isZero()) {
      throw new IllegalArgumentException("subquery step must be positive: " + defaultSubqueryStep);
    }
    if (maxQueryMemoryBytes <= 0 || maxTotalQueryMemoryBytes <= 0) {
      throw new IllegalArgumentException("query memory limits must be positive");
    }
  }

  public EngineOptions withLookbackDelta(Duration value) {
    return new EngineOptions(
        value,
        maxSamples,
        timeout,
        maxConcurrentQueries,
        defaultSubqueryStep,
        delayedNameRemoval,
        parallelism,
        maxQueryMemoryBytes,
        maxTotalQueryMemoryBytes);
  }

  public EngineOptions withMaxSamples(long value) {
    return new EngineOptions(
        lookbackDelta,
        value,
        timeout,
        maxConcurrentQueries,
        defaultSubqueryStep,
        delayedNameRemoval,
        parallelism,
        maxQueryMemoryBytes,
        maxTotalQueryMemoryBytes);
  }

  public EngineOptions withTimeout(Duration value) {
    return new EngineOptions(
        lookbackDelta,
        maxSamples,
        value,
        maxConcurrentQueries,
        defaultSubqueryStep,
        delayedNameRemoval,
        parallelism,
        maxQueryMemoryBytes,
        maxTotalQueryMemoryBytes);
  }

  public EngineOptions withDelayedNameRemoval(boolean value) {
    return new EngineOptions(
        lookbackDelta,
        maxSamples,
        timeout,
        maxConcurrentQueries,
        defaultSubqueryStep,
        value,
        parallelism,
        maxQueryMemoryBytes,
        maxTotalQueryMemoryBytes);
  }

  public EngineOptions withParallelism(Parallelism value) {
    return new EngineOptions(
        lookbackDelta,
        maxSamples,
        timeout,
        maxConcurrentQueries,
        defaultSubqueryStep,
        delayedNameRemoval,
        value,
        maxQueryMemoryBytes,
        maxTotalQueryMemoryBytes);
  }

  /**
   * Limits on the memory queries hold (series buffers, step vectors, intermediate results): {@code
   * perQuery} for each, as {@code --query.max-memory}, and {@code total} for all running at once.
   */
  public EngineOptions withMaxMemory(long perQuery, long total) {
    return new EngineOptions(
        lookbackDelta,
        maxSamples,
        timeout,
        maxConcurrentQueries,
        defaultSubqueryStep,
        delayedNameRemoval,
        parallelism,
        perQuery,
        total);
  }
}
