package io.flightdeck.scrape;

import io.flightdeck.model.Labels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One target's series as its body writes them, Prometheus's scrape cache: the raw bytes of a series
 * (name and label set as written) map to the labels it was stored under after joining with the
 * target's and relabelling, and to its storage reference. A scrape that finds its series here
 * builds no labels, runs no relabelling and looks nothing up in storage. Entries also remember the
 * last scrape that stored each series, which is what staleness needs. As bodies mostly repeat their
 * series in the same order, a lookup first compares with the series met at the same place last
 * time, and hashes only when that is not it. Used by one scrape loop, one scrape at a time.
 */
final class SeriesCache {
  /** What one series as written stands for. */
  static final class Entry {
    private final byte[] key;
    private final int hash;
    private Entry next;

    /** The labels stored, or null when metric relabelling drops the series. */
    final Labels labels;

    /** The storage reference from the last append, 0 before any. */
    long ref;

    /** The last scrape that met this series, stored or not. */
    private long seenIn = -1;

    /** The last scrape whose batch stored this series and was kept; staleness follows this. */
    private long storedIn = -1;

    /** The scrape of the batch being built that stored this series, if any. */
    private long pendingIn = -1;

    /** Where the last scrape that met this series met it, in {@link #previousOrder}. */
    private int position;

    private Entry(byte[] key, int hash, Labels labels) {
      this.key = key;
      this.hash = hash;
      this.labels = labels;
    }
  }

  private Entry[] table = new Entry[64];
  private int size;
  private long scrape;
  private final List<Entry> pending = new ArrayList<>();

  /** The series in the order the previous scrape met them, and where this scrape is in it. */
  private Entry[] previousOrder = new Entry[0];

  private int expected;

  /** The series in the order this scrape meets them. */
  private Entry[] order = new Entry[64];

  private int ordered;

  /** Starts the next scrape; entries from before it count as "previous" from now on. */
  void beginScrape() {
    scrape++;
    pending.clear();
    Entry[] met = previousOrder;
    previousOrder = order;
    order = met.length >= ordered ? met : new Entry[ordered];
    Arrays.fill(order, null);
    for (int i = ordered; i < previousOrder.length; i++) {
      previousOrder[i] = null;
    }
    ordered = 0;
    expected = 0;
  }

  /** The entry for the series in {@code bytes[from, to)}, marked as met by this scrape, or null. */
  Entry get(byte[] bytes, int from, int to) {
    if (expected < previousOrder.length) {
      Entry e = previousOrder[expected];
      if (e != null && Arrays.equals(e.key, 0, e.key.length, bytes, from, to)) {
        expected++;
        return met(e);
      }
    }
    int hash = hash(bytes, from, to);
    for (Entry e = table[hash & (table.length - 1)]; e != null; e = e.next) {
      if (e.hash == hash && Arrays.equals(e.key, 0, e.key.length, bytes, from, to)) {
        // Where the body went on differently from last time: expect what followed this one then.
        if (e.seenIn == scrape - 1) {
          expected = e.position + 1;
        }
        return met(e);
      }
    }
    return null;
  }

  private Entry met(Entry e) {
    e.seenIn = scrape;
    if (ordered == order.length) {
      order = Arrays.copyOf(order, Math.max(64, ordered * 2));
    }
    e.position = ordered;
    order[ordered++] = e;
    return e;
  }

  /** Adds the series in {@code bytes[from, to)}; {@code labels} null when it is dropped. */
  Entry put(byte[] bytes, int from, int to, Labels labels) {
    Entry e = new Entry(Arrays.copyOfRange(bytes, from, to), hash(bytes, from, to), labels);
    met(e);
    if (size >= table.length * 3 / 4) {
      resize(table.length * 2);
    }
    int slot = e.hash & (table.length - 1);
    e.next = table[slot];
    table[slot] = e;
    size++;
    return e;
  }

  /** Whether the previous scrape stored this series, or this one already did. */
  boolean known(Entry e) {
    return e.storedIn == scrape - 1 || e.pendingIn == scrape;
  }

  /** Records that this scrape's batch stored the series (staleness follows it). */
  void stored(Entry e) {
    if (e.pendingIn != scrape) {
      e.pendingIn = scrape;
      pending.add(e);
    }
  }

  /** The batch was committed with its samples: what it stored is now what the target exposes. */
  void keepBatch() {
    for (Entry e : pending) {
      e.storedIn = scrape;
    }
    pending.clear();
  }

  /**
   * Series the previous scrape stored and this one did not (call after {@link #keepBatch()}),
   * except those this one stored under other bytes with equal labels. After a failed scrape, that
   * is everything the previous one stored.
   */
  List<Entry> disappeared() {
    List<Entry> gone = storedBy(scrape - 1);
    if (gone.isEmpty()) {
      return gone;
    }
    Set<Labels> stillStored = new HashSet<>();
    for (Entry e : storedBy(scrape)) {
      stillStored.add(e.labels);
    }
    Set<Labels> ended = new HashSet<>();
    List<Entry> result = new ArrayList<>();
    for (Entry e : gone) {
      if (!stillStored.contains(e.labels) && ended.add(e.labels)) {
        result.add(e);
      }
    }
    return result;
  }

  /** What the latest scrape stored, for staleness markers when the target goes. */
  List<Entry> latest() {
    return storedBy(scrape);
  }

  /** Forgets series met neither by this scrape nor the previous one, so the cache stays bounded. */
  void evictOld() {
    int before = size;
    for (int slot = 0; slot < table.length; slot++) {
      Entry kept = null;
      for (Entry e = table[slot]; e != null; ) {
        Entry next = e.next;
        if (e.seenIn >= scrape - 1 || e.storedIn >= scrape - 1) {
          e.next = kept;
          kept = e;
        } else {
          size--;
        }
        e = next;
      }
      table[slot] = kept;
    }
    if (size < before && table.length > 64 && size < table.length / 8) {
      resize(Math.max(64, Integer.highestOneBit(Math.max(1, size)) * 4));
    }
  }

  private List<Entry> storedBy(long which) {
    List<Entry> found = new ArrayList<>();
    for (Entry head : table) {
      for (Entry e = head; e != null; e = e.next) {
        if (e.labels != null && e.storedIn == which) {
          found.add(e);
        }
      }
    }
    return found;
  }

  private void resize(int capacity) {
    Entry[] old = table;
    table = new Entry[capacity];
    for (Entry head : old) {
      for (Entry e = head; e != null; ) {
        Entry next = e.next;
        int slot = e.hash & (capacity - 1);
        e.next = table[slot];
        table[slot] = e;
        e = next;
      }
    }
  }

  private static int hash(byte[] bytes, int from, int to) {
    int h = 1;
    for (int i = from; i < to; i++) {
      h = 31 * h + bytes[i];
    }
    return h ^ (h >>> 16);
  }
}
