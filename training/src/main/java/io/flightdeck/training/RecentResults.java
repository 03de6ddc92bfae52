package io.flightdeck.training;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Answers asked for twice within a moment are computed once. A cockpit page asks for a run's step
 * map twice at once (the step-progress chart, and the step axis of every other chart), each a read
 * of every rank's step counter over the range; the second asker waits for the first one's answer
 * instead of reading it all again. Answers are kept for {@code keepNanos} only: the data moves on
 * with every scrape. At most {@link #MAX_KEYS} keys are kept. Thread-safe.
 */
final class RecentResults<K, V> {
  static final int MAX_KEYS = 64;

  private record Entry<V>(CompletableFuture<V> value, long madeAtNanos) {}

  private final Map<K, Entry<V>> entries = new ConcurrentHashMap<>();
  private final long keepNanos;

  RecentResults(long keepNanos) {
    this.keepNanos = keepNanos;
  }

  V get(K key, Supplier<V> compute) {
    long now = System.nanoTime();
    entries.values().removeIf(e -> e.value().isDone() && now - e.madeAtNanos() > keepNanos);
    Entry<V> mine = new Entry<>(new CompletableFuture<>(), now);
    Entry<V> found = entries.size() >= MAX_KEYS ? null : entries.putIfAbsent(key, mine);
    if (found != null) {
      try {
        return found.value().join();
      } catch (CompletionException e) {
        // The first asker failed and told its caller; this one tries for itself.
        return compute.get();
      }
    }
    try {
      V value = compute.get();
      mine.value().complete(value);
      return value;
    } catch (RuntimeException | Error e) {
      entries.remove(key, mine);
      mine.value().completeExceptionally(e);
      throw e;
    }
  }
}
