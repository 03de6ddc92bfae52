package io.flightdeck.tsdb.head;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.tsdb.index.PostingsSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.roaringbitmap.RoaringBitmap;

/**
 * The head's inverted index: for every label pair, the ids of the series carrying it. Thread-safe:
 * writers (series creation and removal) take the write lock; readers get private copies.
 */
final class MemPostings implements PostingsSelector.Source {
  private final ReadWriteLock lock = new ReentrantReadWriteLock();
  private final NavigableMap<String, NavigableMap<String, RoaringBitmap>> byName = new TreeMap<>();
  private final RoaringBitmap all = new RoaringBitmap();

  /**
   * Indexes the series, and returns its labels made of the index's own strings: every series with a
   * pair then holds the same two instances, so the head keeps one copy of each name and value, and
   * sorting or merging label sets finds equal strings by reference.
   */
  Labels add(int id, Labels labels) {
    String[] pairs = new String[labels.size() * 2];
    lock.writeLock().lock();
    try {
      all.add(id);
      for (int i = 0; i < labels.size(); i++) {
        Map.Entry<String, NavigableMap<String, RoaringBitmap>> name =
            existing(byName, labels.name(i));
        if (name == null) {
          byName.put(labels.name(i), new TreeMap<>());
          name = existing(byName, labels.name(i));
        }
        Map.Entry<String, RoaringBitmap> value = existing(name.getValue(), labels.value(i));
        if (value == null) {
          name.getValue().put(labels.value(i), new RoaringBitmap());
          value = existing(name.getValue(), labels.value(i));
        }
        value.getValue().add(id);
        pairs[2 * i] = name.getKey();
        pairs[2 * i + 1] = value.getKey();
      }
    } finally {
      lock.writeLock().unlock();
    }
    return Labels.fromSortedPairs(pairs);
  }

  /** The entry for {@code key} as stored, with the map's own key instance; null when absent. */
  private static <V> Map.Entry<String, V> existing(NavigableMap<String, V> map, String key) {
    Map.Entry<String, V> entry = map.ceilingEntry(key);
    return entry != null && entry.getKey().equals(key) ? entry : null;
  }

  void remove(int id, Labels labels) {
    lock.writeLock().lock();
    try {
      all.remove(id);
      for (int i = 0; i < labels.size(); i++) {
        NavigableMap<String, RoaringBitmap> values = byName.get(labels.name(i));
        if (values == null) {
          continue;
        }
        RoaringBitmap ids = values.get(labels.value(i));
        if (ids != null) {
          ids.remove(id);
          if (ids.isEmpty()) {
            values.remove(labels.value(i));
          }
        }
        if (values.isEmpty()) {
          byName.remove(labels.name(i));
        }
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Ids of the series matching all matchers, a private copy. */
  RoaringBitmap select(Matcher... matchers) {
    lock.readLock().lock();
    try {
      return PostingsSelector.select(this, matchers);
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Label names carried by any of the given series, sorted. */
  List<String> labelNames(RoaringBitmap ids) {
    lock.readLock().lock();
    try {
      List<String> names = new ArrayList<>();
      for (Map.Entry<String, NavigableMap<String, RoaringBitmap>> entry : byName.entrySet()) {
        for (RoaringBitmap postings : entry.getValue().values()) {
          if (RoaringBitmap.intersects(postings, ids)) {
            names.add(entry.getKey());
            break;
          }
        }
      }
      return names;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Values of a label among the given series, sorted. */
  List<String> labelValues(String name, RoaringBitmap ids) {
    lock.readLock().lock();
    try {
      List<String> result = new ArrayList<>();
      NavigableMap<String, RoaringBitmap> values = byName.get(name);
      if (values != null) {
        for (Map.Entry<String, RoaringBitmap> entry : values.entrySet()) {
          if (RoaringBitmap.intersects(entry.getValue(), ids)) {
            result.add(entry.getKey());
          }
        }
      }
      return result;
    } finally {
      lock.readLock().unlock();
    }
  }

  // PostingsSelector.Source: called with the read lock held.

  @Override
  public RoaringBitmap allPostings() {
    return all;
  }

  @Override
  public NavigableMap<String, RoaringBitmap> valuesOf(String name) {
    return byName.getOrDefault(name, java.util.Collections.emptyNavigableMap());
  }
}
