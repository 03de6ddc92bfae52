package io.flightdeck.training;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A drop's movers are read again only when its window has moved by half of what was read. */
class DropMoversTest {
  private final DropMovers movers = new DropMovers();
  private final AtomicInteger reads = new AtomicInteger();

  private String ask(String run, long onset, long from, long to) {
    return movers.of(run, onset, from, to, () -> "read " + reads.incrementAndGet() + " to " + to);
  }

  @Test
  void anOpenDropsMoversAreReadAgainEachTimeItsWindowGrowsByHalf() {
    assertEquals("read 1 to 100", ask("a", 10, 0, 100));
    assertEquals("read 1 to 100", ask("a", 10, 0, 150), "grown by half: the same movers");
    assertEquals("read 2 to 151", ask("a", 10, 0, 151));
    assertEquals("read 2 to 151", ask("a", 10, 0, 226));
    assertEquals("read 3 to 227", ask("a", 10, 0, 227));
    // A narrower window (an older range asked for) by more than half is read too.
    assertEquals("read 4 to 100", ask("a", 10, 0, 100));
    assertEquals(4, reads.get());
  }

  @Test
  void eachDropOfEachRunHasItsOwnMovers() {
    assertEquals("read 1 to 100", ask("a", 10, 0, 100));
    assertEquals("read 2 to 100", ask("a", 20, 0, 100));
    assertEquals("read 3 to 100", ask("b", 10, 0, 100));
    assertEquals("read 1 to 100", ask("a", 10, 0, 100));
  }

  @Test
  void theDropsAskedForLeastRecentlyGoFirst() {
    ask("a", 0, 0, 100);
    for (int k = 1; k <= DropMovers.MAX_DROPS; k++) {
      ask("b", k, 0, 100);
    }
    assertEquals("read " + (DropMovers.MAX_DROPS + 2) + " to 100", ask("a", 0, 0, 100));
    assertEquals(
        "read " + (DropMovers.MAX_DROPS + 1) + " to 100", ask("b", DropMovers.MAX_DROPS, 0, 100));
  }
}
