package io.flightdeck.tsdb.head;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.ReadCancellation;
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
  private final Map<String, NavigableMap<String, RoaringBitmap>> byName = new TreeMap<>();
  private final RoaringBitmap all = new RoaringBitmap();

  void add(int id, Labels labels) {
    lock.writeLock().lock();
    try {
      all.add(id);
      for (int i = 0; i < labels.size(); i++) {
        byName
            .computeIfAbsent(labels.name(i), n -> new TreeMap<>())
            .computeIfAbsent(labels.value(i), v -> new RoaringBitmap())
            .add(id);
      }
    } finally {
      lock.writeLock().unlock();
    }
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
      int turn = 0;
      for (Map.Entry<String, NavigableMap<String, RoaringBitmap>> entry : byName.entrySet()) {
        for (RoaringBitmap postings : entry.getValue().values()) {
          ReadCancellation.checkpoint(++turn);
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
        int turn = 0;
        for (Map.Entry<String, RoaringBitmap> entry : values.entrySet()) {
          ReadCancellation.checkpoint(++turn);
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
