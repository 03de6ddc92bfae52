package io.flightdeck.tsdb.head;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The head's series by id. Ids are handed out densely from 1, so pages of an array find a series
 * without hashing or boxing the id, which every append by reference does. Reads are lock-free and
 * see a series once {@link #put} has returned; writes are serialised here. A page whose series are
 * all gone is dropped, so churn does not keep memory.
 */
final class SeriesById {
  private static final int PAGE_BITS = 12;
  private static final int PAGE_SIZE = 1 << PAGE_BITS;
  private static final int PAGE_MASK = PAGE_SIZE - 1;

  /** Replaced whole when it grows; pages within it appear and disappear in place. */
  private volatile AtomicReferenceArray<AtomicReferenceArray<HeadSeries>> pages =
      new AtomicReferenceArray<>(0);

  /** Series per page, guarded by {@code this}. */
  private int[] counts = new int[0];

  private volatile int size;

  HeadSeries get(int id) {
    if (id <= 0) {
      return null;
    }
    AtomicReferenceArray<AtomicReferenceArray<HeadSeries>> p = pages;
    int index = id >>> PAGE_BITS;
    if (index >= p.length()) {
      return null;
    }
    AtomicReferenceArray<HeadSeries> page = p.get(index);
    return page == null ? null : page.get(id & PAGE_MASK);
  }

  boolean containsKey(int id) {
    return get(id) != null;
  }

  int size() {
    return size;
  }

  /** Adds or replaces the series with this id, which must be positive. */
  synchronized void put(int id, HeadSeries series) {
    if (id <= 0) {
      throw new IllegalArgumentException("series id must be positive, got " + id);
    }
    int index = id >>> PAGE_BITS;
    AtomicReferenceArray<AtomicReferenceArray<HeadSeries>> p = pages;
    if (index >= p.length()) {
      int length = Math.max(index + 1, p.length() * 2);
      AtomicReferenceArray<AtomicReferenceArray<HeadSeries>> grown =
          new AtomicReferenceArray<>(length);
      for (int i = 0; i < p.length(); i++) {
        grown.set(i, p.get(i));
      }
      counts = java.util.Arrays.copyOf(counts, length);
      pages = grown;
      p = grown;
    }
    AtomicReferenceArray<HeadSeries> page = p.get(index);
    if (page == null) {
      page = new AtomicReferenceArray<>(PAGE_SIZE);
      p.set(index, page);
    }
    if (page.getAndSet(id & PAGE_MASK, series) == null) {
      counts[index]++;
      size++;
    }
  }

  /** Removes the series if it is the one under its id; returns whether it was. */
  synchronized boolean remove(int id, HeadSeries series) {
    int index = id >>> PAGE_BITS;
    AtomicReferenceArray<AtomicReferenceArray<HeadSeries>> p = pages;
    if (id <= 0 || index >= p.length()) {
      return false;
    }
    AtomicReferenceArray<HeadSeries> page = p.get(index);
    if (page == null || !page.compareAndSet(id & PAGE_MASK, series, null)) {
      return false;
    }
    size--;
    if (--counts[index] == 0) {
      p.set(index, null);
    }
    return true;
  }

  /** Every series at the time of the call, in id order. */
  List<HeadSeries> values() {
    AtomicReferenceArray<AtomicReferenceArray<HeadSeries>> p = pages;
    List<HeadSeries> all = new ArrayList<>(size);
    for (int i = 0; i < p.length(); i++) {
      AtomicReferenceArray<HeadSeries> page = p.get(i);
      if (page != null) {
        for (int j = 0; j < PAGE_SIZE; j++) {
          HeadSeries series = page.get(j);
          if (series != null) {
            all.add(series);
          }
        }
      }
    }
    return all;
  }
}
