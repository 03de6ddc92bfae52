package io.flightdeck.promql.engine;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Runs one query's per-series work (reading a series and sliding its windows) on the query's own
 * thread and, for a large selection, on helper threads beside it. Series are claimed in batches in
 * turn, so a slow batch holds no one up, and each index's result is written to its own slot, so the
 * output keeps the input's order whoever computed it. The query's thread works too, and waits only
 * for batches a helper has already claimed: a helper that starts late finds nothing left.
 */
final class SeriesFanOut {
  /** The work for one series, with the state of the worker running it (buffers, iterators). */
  interface SeriesTask<S> {
    void run(S worker, int index);
  }

  /**
   * Shared by every query. Cached: a helper is started only when no idle one is waiting, and leaves
   * after a minute without work; their number is bounded by the concurrent queries times the
   * workers per query.
   */
  private static final ExecutorService HELPERS =
      Executors.newCachedThreadPool(
          new ThreadFactory() {
            private final AtomicInteger created = new AtomicInteger();

            @Override
            public Thread newThread(Runnable r) {
              Thread thread = new Thread(r, "promql-worker-" + created.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            }
          });

  private SeriesFanOut() {}

  /**
   * Runs {@code task} for every index below {@code count}, each worker with its own state from
   * {@code workerState}; returns when all have run, or throws the first failure.
   */
  static <S> void forEach(
      QueryContext ctx, int count, Supplier<S> workerState, SeriesTask<S> task) {
    EngineOptions.Parallelism parallelism = ctx.options.parallelism();
    int batchSize = parallelism.seriesPerBatch();
    int batches = (int) ((count + (long) batchSize - 1) / batchSize);
    int helpers = Math.max(0, Math.min(parallelism.maxWorkers() - 1, batches - 1));
    Run<S> run = new Run<>(ctx, count, batchSize, batches, workerState, task, helpers);
    for (int h = 0; h < helpers; h++) {
      HELPERS.execute(run::helpOut);
    }
    try {
      run.work();
    } catch (RuntimeException | Error e) {
      run.failure.compareAndSet(null, e);
    }
    run.awaitHelpers();
  }

  /** The state one fanned-out loop shares among its workers. */
  private static final class Run<S> {
    private final QueryContext ctx;
    private final int count;
    private final int batchSize;
    private final int batches;
    private final Supplier<S> workerState;
    private final SeriesTask<S> task;
    private final AtomicInteger nextBatch = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final CountDownLatch helpersDone;

    Run(
        QueryContext ctx,
        int count,
        int batchSize,
        int batches,
        Supplier<S> workerState,
        SeriesTask<S> task,
        int helpers) {
      this.ctx = ctx;
      this.count = count;
      this.batchSize = batchSize;
      this.batches = batches;
      this.workerState = workerState;
      this.task = task;
      this.helpersDone = new CountDownLatch(helpers);
    }

    /** A helper's part: claims batches until none is left or a worker failed. */
    void helpOut() {
      try {
        work();
      } catch (Throwable t) {
        failure.compareAndSet(null, t);
      } finally {
        helpersDone.countDown();
      }
    }

    void work() {
      S worker = null;
      int batch;
      while (failure.get() == null && (batch = nextBatch.getAndIncrement()) < batches) {
        if (worker == null) {
          worker = workerState.get();
        }
        int end = Math.min(count, (batch + 1) * batchSize);
        for (int i = batch * batchSize; i < end; i++) {
          ctx.checkDeadline();
          task.run(worker, i);
        }
      }
    }

    /**
     * Waits for the helpers even when interrupted: they read the query's storage snapshot, which
     * the query closes once this returns. They stop at their next batch once a failure is set.
     */
    void awaitHelpers() {
      boolean interrupted = false;
      while (true) {
        try {
          helpersDone.await();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
          failure.compareAndSet(
              null,
              new QueryException(
                  QueryException.Kind.CANCELED, "query was canceled in expression evaluation"));
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      Throwable failed = failure.get();
      if (failed instanceof RuntimeException e) {
        throw e;
      }
      if (failed instanceof Error e) {
        throw e;
      }
      if (failed != null) {
        throw new IllegalStateException(failed);
      }
    }
  }
}
