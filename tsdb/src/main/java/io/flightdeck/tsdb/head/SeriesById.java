package io.flightdeck.tsdb.head;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The head's series by id. Ids are handed out densely from 1, so pages of an array find a series
 * without hashing or boxing the id, which every append by reference does. Reads take no lock: every
 * write ends by writing the volatile page table again, which a read reads first, so a read sees
 * every {@link #put} that returned before it began. Writes are serialised here. A page whose series
 * are all gone is dropped, so churn does not keep memory. Plain arrays rather than atomic ones: the
 * C1 compiler the launcher uses does not optimise the atomic arrays' accessors.
 */
final class SeriesById {
  private static final int PAGE_BITS = 12;
  private static final int PAGE_SIZE = 1 << PAGE_BITS;
  private static final int PAGE_MASK = PAGE_SIZE - 1;

  private volatile HeadSeries[][] pages = new HeadSeries[0][];

  /** Series per page, guarded by {@code this}. */
  private int[] counts = new int[0];

  private volatile int size;

  HeadSeries get(int id) {
    HeadSeries[][] p = pages;
    int index = id >>> PAGE_BITS;
    if (id <= 0 || index >= p.length) {
      return null;
    }
    HeadSeries[] page = p[index];
    return page == null ? null : page[id & PAGE_MASK];
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
    HeadSeries[][] p = pages;
    if (index >= p.length) {
      int length = Math.max(index + 1, p.length * 2);
      p = Arrays.copyOf(p, length);
      counts = Arrays.copyOf(counts, length);
    }
    if (p[index] == null) {
      p[index] = new HeadSeries[PAGE_SIZE];
    }
    if (p[index][id & PAGE_MASK] == null) {
      counts[index]++;
      size++;
    }
    p[index][id & PAGE_MASK] = series;
    pages = p; // publishes the stores above to readers
  }

  /** Removes the series if it is the one under its id; returns whether it was. */
  synchronized boolean remove(int id, HeadSeries series) {
    int index = id >>> PAGE_BITS;
    HeadSeries[][] p = pages;
    if (id <= 0 || index >= p.length || p[index] == null || p[index][id & PAGE_MASK] != series) {
      return false;
    }
    p[index][id & PAGE_MASK] = null;
    size--;
    if (--counts[index] == 0) {
      p[index] = null;
    }
    pages = p;
    return true;
  }

  /** Every series at the time of the call, in id order. */
  List<HeadSeries> values() {
    HeadSeries[][] p = pages;
    List<HeadSeries> all = new ArrayList<>(size);
    for (HeadSeries[] page : p) {
      if (page != null) {
        for (HeadSeries series : page) {
          if (series != null) {
            all.add(series);
          }
        }
      }
    }
    return all;
  }
}
