package io.flightdeck.app;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the old generation near twice its live size, as Go's garbage collector does for Prometheus.
 * The serial collector (the launcher's default, for a small footprint) grows the old generation
 * whenever objects are promoted instead of collecting it, so without this the heap follows
 * everything ever promoted rather than what is alive. Once a second it compares the old
 * generation's use with twice what survived the last full collection and, past that, asks for a
 * full collection, after which the JVM also gives memory back (MaxHeapFreeRatio).
 */
final class HeapGovernor implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HeapGovernor.class);
  private static final long FLOOR_BYTES = 32L << 20;

  private final MemoryPoolMXBean oldGeneration;
  private final ScheduledExecutorService timer;
  private long limit = FLOOR_BYTES;

  private HeapGovernor(MemoryPoolMXBean oldGeneration) {
    this.oldGeneration = oldGeneration;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "heap-governor");
              t.setDaemon(true);
              return t;
            });
    timer.scheduleWithFixedDelay(this::check, 1, 1, TimeUnit.SECONDS);
  }

  /** Starts governing when the collector is one that grows instead of collecting; else null. */
  static HeapGovernor startIfUseful() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getName().equals("Tenured Gen")) {
        return new HeapGovernor(pool);
      }
    }
    return null;
  }

  private void check() {
    long used = oldGeneration.getUsage().getUsed();
    if (used <= limit) {
      return;
    }
    long began = System.nanoTime();
    System.gc();
    long live = oldGeneration.getUsage().getUsed();
    limit = Math.max(FLOOR_BYTES, 2 * live);
    log.debug(
        "old generation at {} MiB: full collection left {} MiB in {} ms",
        used >> 20,
        live >> 20,
        (System.nanoTime() - began) / 1_000_000);
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
