package io.flightdeck.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RecentResultsTest {
  @Test
  void twoAskersAtOnceShareOneComputation() throws Exception {
    RecentResults<String, Integer> results = new RecentResults<>(TimeUnit.MINUTES.toNanos(1));
    AtomicInteger computed = new AtomicInteger();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<Integer> first =
          pool.submit(
              () ->
                  results.get(
                      "run-a",
                      () -> {
                        started.countDown();
                        await(release);
                        return 100 + computed.incrementAndGet();
                      }));
      assertEquals(true, started.await(10, TimeUnit.SECONDS));
      Future<Integer> second = pool.submit(() -> results.get("run-a", computed::incrementAndGet));
      release.countDown();
      assertEquals(101, first.get(10, TimeUnit.SECONDS));
      assertEquals(101, second.get(10, TimeUnit.SECONDS), "the second asker got the first answer");
      assertEquals(1, computed.get());
      assertEquals(2, results.get("run-b", computed::incrementAndGet), "another key is its own");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anAnswerIsKeptOnlyForItsMomentAndAFailureIsNotKept() {
    RecentResults<String, Integer> results = new RecentResults<>(0);
    AtomicInteger computed = new AtomicInteger();
    results.get("k", computed::incrementAndGet);
    assertEquals(2, results.get("k", computed::incrementAndGet), "expired: computed again");

    RecentResults<String, Integer> kept = new RecentResults<>(TimeUnit.MINUTES.toNanos(1));
    assertThrows(
        IllegalStateException.class,
        () ->
            kept.get(
                "k",
                () -> {
                  throw new IllegalStateException("storage closed");
                }));
    assertEquals(7, kept.get("k", () -> 7), "a failure is not an answer");
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
