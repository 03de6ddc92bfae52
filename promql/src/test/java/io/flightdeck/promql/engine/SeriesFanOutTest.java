package io.flightdeck.promql.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class SeriesFanOutTest {
  private static QueryContext context(int workers, int seriesPerBatch) {
    EngineOptions options =
        EngineOptions.DEFAULT.withParallelism(
            new EngineOptions.Parallelism(workers, seriesPerBatch));
    return new QueryContext(null, options, System.nanoTime() + 60_000_000_000L, 0, 0, 0);
  }

  @Test
  void aSelectionUnderTwoBatchesStaysOnTheQueryThread() {
    Set<Thread> threads = ConcurrentHashMap.newKeySet();
    AtomicIntegerArray runs = new AtomicIntegerArray(32);

    SeriesFanOut.forEach(
        context(4, 32),
        32,
        Object::new,
        (worker, index) -> {
          threads.add(Thread.currentThread());
          runs.incrementAndGet(index);
        });

    assertThat(threads).containsExactly(Thread.currentThread());
    for (int i = 0; i < 32; i++) {
      assertThat(runs.get(i)).as("runs of index %d", i).isEqualTo(1);
    }
  }

  @Test
  void aLargeSelectionRunsEveryIndexOnceAcrossThreadsEachWithItsOwnState() {
    int count = 200;
    AtomicIntegerArray runs = new AtomicIntegerArray(count);
    Set<Thread> threads = ConcurrentHashMap.newKeySet();
    Set<Object> states = ConcurrentHashMap.newKeySet();
    ConcurrentHashMap<Object, Thread> ownerOfState = new ConcurrentHashMap<>();

    SeriesFanOut.forEach(
        context(3, 4),
        count,
        Object::new,
        (worker, index) -> {
          threads.add(Thread.currentThread());
          states.add(worker);
          assertThat(ownerOfState.computeIfAbsent(worker, w -> Thread.currentThread()))
              .isSameAs(Thread.currentThread());
          runs.incrementAndGet(index);
          sleep(1);
        });

    for (int i = 0; i < count; i++) {
      assertThat(runs.get(i)).as("runs of index %d", i).isEqualTo(1);
    }
    assertThat(threads).hasSizeBetween(2, 3).contains(Thread.currentThread());
    assertThat(states).hasSameSizeAs(threads);
  }

  @Test
  void theFirstFailureIsThrownAndNoWorkerRunsAfterTheCallReturns() {
    AtomicInteger running = new AtomicInteger();
    AtomicInteger started = new AtomicInteger();

    assertThatThrownBy(
            () ->
                SeriesFanOut.forEach(
                    context(4, 2),
                    400,
                    Object::new,
                    (worker, index) -> {
                      running.incrementAndGet();
                      started.incrementAndGet();
                      try {
                        sleep(1);
                        if (index == 40) {
                          throw new QueryException(QueryException.Kind.EXECUTION, "index 40");
                        }
                      } finally {
                        running.decrementAndGet();
                      }
                    }))
        .isInstanceOf(QueryException.class)
        .hasMessage("index 40");

    int startedWhenThrown = started.get();
    assertThat(running.get()).isZero();
    sleep(50);
    assertThat(started.get()).isEqualTo(startedWhenThrown).isLessThan(400);
  }

  @Test
  void aFannedOutQueryAnswersAsOneThreadDoesAndKeepsTheSeriesOrder() {
    InMemoryStorage storage = new InMemoryStorage();
    for (int host = 0; host < 50; host++) {
      int h = host;
      storage.add(
          Labels.of(
              "__name__", "node_network_receive_bytes_total", "instance", "host-" + (100 + h)),
          241,
          15_000,
          i -> i % (60 + h) * 1000.0 * (h + 1));
    }
    String query = "rate(node_network_receive_bytes_total[5m]) > 0";
    Engine oneThread =
        new Engine(EngineOptions.DEFAULT.withParallelism(new EngineOptions.Parallelism(1, 1)));
    Engine fannedOut =
        new Engine(EngineOptions.DEFAULT.withParallelism(new EngineOptions.Parallelism(4, 1)));

    MatrixValue expected =
        (MatrixValue) oneThread.rangeQuery(storage, query, 0, 3_600_000, 30_000).value();
    MatrixValue actual =
        (MatrixValue) fannedOut.rangeQuery(storage, query, 0, 3_600_000, 30_000).value();

    assertThat(expected.series()).hasSize(50);
    assertThat(actual.series()).hasSameSizeAs(expected.series());
    for (int i = 0; i < expected.series().size(); i++) {
      assertThat(actual.series().get(i).labels()).isEqualTo(expected.series().get(i).labels());
      assertThat(actual.series().get(i).timestamps())
          .isEqualTo(expected.series().get(i).timestamps());
      assertThat(actual.series().get(i).values()).isEqualTo(expected.series().get(i).values());
    }
  }

  @Test
  void theSampleLimitFailsAFannedOutQuery() {
    InMemoryStorage storage = new InMemoryStorage();
    for (int gpu = 0; gpu < 40; gpu++) {
      storage.add(
          Labels.of("__name__", "DCGM_FI_DEV_GPU_UTIL", "gpu", "" + gpu), 241, 15_000, i -> i);
    }
    Engine engine =
        new Engine(
            EngineOptions.DEFAULT
                .withMaxSamples(1_000)
                .withParallelism(new EngineOptions.Parallelism(4, 1)));

    assertThatThrownBy(
            () ->
                engine.rangeQuery(
                    storage, "avg_over_time(DCGM_FI_DEV_GPU_UTIL[10m])", 0, 3_600_000, 60_000))
        .isInstanceOf(QueryException.class)
        .hasMessage(SampleBudget.TOO_MANY_SAMPLES);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
