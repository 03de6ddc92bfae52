package io.flightdeck.tensorboard;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The in-memory index of a store of stepped samples (texts, images): where each sample lies in its
 * {@link RecordFile}, by run, tag and append order, plus what a listing needs without reading the
 * file. Knows which samples are already stored and which TensorBoard would still show. Not
 * thread-safe: each store locks around it.
 *
 * @param <M> what an entry keeps besides its place in the file
 */
final class SampleIndex<M> {
  private final Map<String, Map<String, List<Entry<M>>>> entries = new TreeMap<>();
  private final Set<Key> keys = new HashSet<>();

  /**
   * One stored sample. {@code index} tells apart the samples one event holds (the images of one
   * tensor); it is 0 where an event holds one.
   */
  record Entry<M>(long step, double wallTimeSeconds, int index, RecordFile.Slot slot, M meta) {}

  /**
   * A stored sample's identity. Equality and hash are written out: a record's own are linked at
   * their first call through method handles, which took an import's first texts 30 ms, and stay
   * slower under C1.
   */
  private record Key(String run, String tag, long step, long wallTimeBits, int index) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k
          && step == k.step
          && wallTimeBits == k.wallTimeBits
          && index == k.index
          && Objects.equals(run, k.run)
          && Objects.equals(tag, k.tag);
    }

    @Override
    public int hashCode() {
      int h = Objects.hashCode(run);
      h = 31 * h + Objects.hashCode(tag);
      h = 31 * h + Long.hashCode(step);
      h = 31 * h + Long.hashCode(wallTimeBits);
      return 31 * h + index;
    }
  }

  /** Whether a sample with this run, tag, step, wall time (bit-exact) and index is stored. */
  boolean contains(String run, String tag, long step, double wallTimeSeconds, int index) {
    return keys.contains(key(run, tag, step, wallTimeSeconds, index));
  }

  void add(String run, String tag, Entry<M> entry) {
    keys.add(key(run, tag, entry.step, entry.wallTimeSeconds, entry.index));
    entries
        .computeIfAbsent(run, r -> new TreeMap<>())
        .computeIfAbsent(tag, t -> new ArrayList<>())
        .add(entry);
  }

  /** Runs with at least one sample, sorted. */
  List<String> runs() {
    return List.copyOf(entries.keySet());
  }

  /** Tags of a run, sorted; empty for an unknown run. */
  List<String> tags(String run) {
    return List.copyOf(entries.getOrDefault(run, Map.of()).keySet());
  }

  /** The current entries of a run and tag with {@code minStep <= step <= maxStep}, by step. */
  List<Entry<M>> current(String run, String tag, long minStep, long maxStep) {
    List<Entry<M>> out = new ArrayList<>();
    for (Entry<M> e : current(entries.getOrDefault(run, Map.of()).getOrDefault(tag, List.of()))) {
      if (e.step >= minStep && e.step <= maxStep) {
        out.add(e);
      }
    }
    return out;
  }

  /**
   * The entries TensorBoard would keep: each event evicts the earlier ones with a step at or after
   * its own, so what is left is increasing in step and eviction pops from the end. Entries of one
   * event (same step and wall time, different index) stay together.
   */
  private static <M> List<Entry<M>> current(List<Entry<M>> all) {
    List<Entry<M>> kept = new ArrayList<>(all.size());
    for (Entry<M> e : all) {
      while (!kept.isEmpty() && evicts(e, kept.getLast())) {
        kept.removeLast();
      }
      kept.add(e);
    }
    return kept;
  }

  private static boolean evicts(Entry<?> later, Entry<?> earlier) {
    return earlier.step > later.step
        || (earlier.step == later.step
            && Double.doubleToLongBits(earlier.wallTimeSeconds)
                != Double.doubleToLongBits(later.wallTimeSeconds));
  }

  private static Key key(String run, String tag, long step, double wallTimeSeconds, int index) {
    return new Key(run, tag, step, Double.doubleToLongBits(wallTimeSeconds), index);
  }
}
