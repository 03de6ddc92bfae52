package io.flightdeck.tensorboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The import's hand-over between its decoding and storing threads. */
class HandOffQueueTest {
  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void everyItemArrivesOnceInOrderThroughASmallQueue() throws Exception {
    HandOffQueue<Integer> queue = new HandOffQueue<>(4);
    int items = 100_000;
    Thread producer =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    for (int i = 0; i < items; i++) {
                      queue.put(i);
                    }
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
    List<Integer> taken = new ArrayList<>();
    for (int i = 0; i < items; i++) {
      taken.add(queue.take());
    }
    producer.join();
    for (int i = 0; i < items; i++) {
      assertThat(taken.get(i)).isEqualTo(i);
    }
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void aFullQueueHoldsItsProducerUntilItHasDrainedToHalf() throws Exception {
    HandOffQueue<Integer> queue = new HandOffQueue<>(4);
    for (int i = 0; i < 4; i++) {
      queue.put(i);
    }
    Thread producer =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    queue.put(4);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
    awaitWaiting(producer);
    assertThat(queue.take()).isZero();
    // Three left, more than half: the producer stays put.
    Thread.sleep(100);
    assertThat(producer.getState()).isEqualTo(Thread.State.WAITING);
    assertThat(queue.take()).isEqualTo(1);
    producer.join();
    assertThat(List.of(queue.take(), queue.take(), queue.take())).containsExactly(2, 3, 4);
  }

  @Test
  void aQueueOfFewerThanTwoIsRefused() {
    assertThatThrownBy(() -> new HandOffQueue<Integer>(1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static void awaitWaiting(Thread thread) throws InterruptedException {
    while (thread.getState() != Thread.State.WAITING) {
      Thread.sleep(1);
    }
  }
}
