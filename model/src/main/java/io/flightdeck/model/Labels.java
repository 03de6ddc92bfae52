package io.flightdeck.model;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * An immutable label set, sorted by label name, that identifies one series. The metric name is the
 * label {@code __name__}. Empty values are dropped on construction, as Prometheus treats a label
 * with an empty value as absent. Instances are thread-safe and may be shared freely.
 */
public final class Labels implements Comparable<Labels> {
  public static final String METRIC_NAME = "__name__";
  public static final Labels EMPTY = new Labels(new String[0]);

  /** name0, value0, name1, value1, ... sorted by name, names unique. */
  private final String[] pairs;

  private int hash;

  private Labels(String[] sortedPairs) {
    this.pairs = sortedPairs;
  }

  /**
   * Labels from alternating names and values in any order; a repeated name keeps the last value.
   */
  public static Labels of(String... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("labels need name/value pairs, got an odd count");
    }
    // Most callers name their labels in order already: then the pairs are taken as they are.
    if (isCanonical(namesAndValues)) {
      return namesAndValues.length == 0 ? EMPTY : new Labels(namesAndValues.clone());
    }
    Builder builder = builder();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      builder.set(namesAndValues[i], namesAndValues[i + 1]);
    }
    return builder.build();
  }

  /** Sorted by name, names unique, no empty value: the form stored as is. */
  private static boolean isCanonical(String[] pairs) {
    for (int i = 0; i < pairs.length; i += 2) {
      if (pairs[i + 1].isEmpty() || (i > 0 && Utf8Order.compare(pairs[i - 2], pairs[i]) >= 0)) {
        return false;
      }
    }
    return true;
  }

  public static Labels fromMap(Map<String, String> map) {
    Builder builder = builder();
    map.forEach(builder::set);
    return builder.build();
  }

  /**
   * Wraps pairs that the caller guarantees are sorted by name, unique and free of empty values
   * (decoded from our own files, say). Unchecked: a wrong order breaks every lookup.
   */
  public static Labels fromSortedPairs(String[] pairs) {
    return new Labels(pairs);
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder builder = new Builder();
    for (int i = 0; i < pairs.length; i += 2) {
      builder.set(pairs[i], pairs[i + 1]);
    }
    return builder;
  }

  public int size() {
    return pairs.length / 2;
  }

  public boolean isEmpty() {
    return pairs.length == 0;
  }

  public String name(int index) {
    return pairs[2 * index];
  }

  public String value(int index) {
    return pairs[2 * index + 1];
  }

  /** The value of a label, or the empty string when the label is absent (Prometheus semantics). */
  public String get(String name) {
    int lo = 0;
    int hi = size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int cmp = Utf8Order.compare(pairs[2 * mid], name);
      if (cmp == 0) {
        return pairs[2 * mid + 1];
      }
      if (cmp < 0) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return "";
  }

  public boolean has(String name) {
    return !get(name).isEmpty();
  }

  public String metricName() {
    return get(METRIC_NAME);
  }

  public void forEach(BiConsumer<String, String> action) {
    for (int i = 0; i < pairs.length; i += 2) {
      action.accept(pairs[i], pairs[i + 1]);
    }
  }

  public List<String> names() {
    List<String> names = new ArrayList<>(size());
    for (int i = 0; i < pairs.length; i += 2) {
      names.add(pairs[i]);
    }
    return names;
  }

  /** A 64-bit hash of names and values that is stable across processes (for sharding, files). */
  public long stableHash() {
    long h = 0xcbf29ce484222325L;
    for (String s : pairs) {
      for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
        h ^= b & 0xff;
        h *= 0x100000001b3L;
      }
      h ^= 0xff; // separator: a byte that never occurs in UTF-8
      h *= 0x100000001b3L;
    }
    return h;
  }

  @Override
  public boolean equals(Object o) {
    return this == o || (o instanceof Labels other && Arrays.equals(pairs, other.pairs));
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = Arrays.hashCode(pairs);
      hash = h;
    }
    return h;
  }

  /**
   * Orders label sets as Prometheus does: pairwise by name, then value, in UTF-8 byte order; a
   * prefix sorts first.
   */
  @Override
  public int compareTo(Labels other) {
    int n = Math.min(pairs.length, other.pairs.length);
    for (int i = 0; i < n; i++) {
      int cmp = Utf8Order.compare(pairs[i], other.pairs[i]);
      if (cmp != 0) {
        return cmp;
      }
    }
    return Integer.compare(pairs.length, other.pairs.length);
  }

  /** Prometheus's notation: {@code metric{a="1", b="2"}}, values escaped. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    String metric = metricName();
    sb.append(metric);
    sb.append('{');
    boolean first = true;
    for (int i = 0; i < pairs.length; i += 2) {
      if (pairs[i].equals(METRIC_NAME)) {
        continue;
      }
      if (!first) {
        sb.append(", ");
      }
      first = false;
      sb.append(pairs[i]).append("=\"");
      appendEscaped(sb, pairs[i + 1]);
      sb.append('"');
    }
    sb.append('}');
    return sb.toString();
  }

  private static void appendEscaped(StringBuilder sb, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\\' -> sb.append("\\\\");
        case '"' -> sb.append("\\\"");
        case '\n' -> sb.append("\\n");
        default -> sb.append(c);
      }
    }
  }

  /** Collects labels in any order; {@link #build()} sorts them and drops empty values. */
  public static final class Builder {
    private final List<String> names = new ArrayList<>();
    private final List<String> values = new ArrayList<>();

    private Builder() {}

    public Builder set(String name, String value) {
      int index = names.indexOf(name);
      if (index >= 0) {
        values.set(index, value);
      } else {
        names.add(name);
        values.add(value);
      }
      return this;
    }

    public Builder remove(String name) {
      int index = names.indexOf(name);
      if (index >= 0) {
        names.remove(index);
        values.remove(index);
      }
      return this;
    }

    public Labels build() {
      Integer[] order = new Integer[names.size()];
      int count = 0;
      for (int i = 0; i < names.size(); i++) {
        if (!values.get(i).isEmpty()) {
          order[count++] = i;
        }
      }
      Integer[] kept = Arrays.copyOf(order, count);
      Arrays.sort(kept, (a, b) -> Utf8Order.compare(names.get(a), names.get(b)));
      String[] pairs = new String[2 * count];
      for (int i = 0; i < count; i++) {
        pairs[2 * i] = names.get(kept[i]);
        pairs[2 * i + 1] = values.get(kept[i]);
      }
      return count == 0 ? EMPTY : new Labels(pairs);
    }
  }
}
