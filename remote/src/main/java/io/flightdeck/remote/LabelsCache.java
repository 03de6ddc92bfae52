package io.flightdeck.remote;

import io.flightdeck.model.Labels;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Label sets by the exact protobuf bytes of their label fields. A sender repeats the same series in
 * every request; recognising their bytes spares decoding, validating and hashing the label strings
 * again, and hands the store the same {@link Labels} instance (whose hash is cached). Bounded: when
 * full, it starts over. Thread-safe.
 */
final class LabelsCache {
  private final ConcurrentHashMap<Key, Labels> entries = new ConcurrentHashMap<>();
  private final int maxEntries;

  LabelsCache(int maxEntries) {
    this.maxEntries = maxEntries;
  }

  /** The labels whose fields are {@code bytes[from, to)}, or null; probe is reused per thread. */
  Labels get(Key probe, byte[] bytes, int from, int to) {
    return entries.get(probe.wrap(bytes, from, to));
  }

  void put(byte[] bytes, int from, int to, Labels labels) {
    if (entries.size() >= maxEntries) {
      entries.clear();
    }
    entries.put(new Key().wrap(Arrays.copyOfRange(bytes, from, to), 0, to - from), labels);
  }

  /** A byte range compared by content. A probe wraps a request's buffer; stored keys own a copy. */
  static final class Key {
    private byte[] bytes;
    private int from;
    private int to;
    private int hash;

    Key wrap(byte[] bytes, int from, int to) {
      this.bytes = bytes;
      this.from = from;
      this.to = to;
      int h = 1;
      for (int i = from; i < to; i++) {
        h = 31 * h + bytes[i];
      }
      this.hash = h;
      return this;
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k
          && k.hash == hash
          && Arrays.equals(bytes, from, to, k.bytes, k.from, k.to);
    }
  }
}
