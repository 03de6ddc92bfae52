package io.flightdeck.collector.gpu;

import io.flightdeck.model.Labels;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The label sets of GPU series: the GPU's identity labels, {@code Hostname}, the driver version,
 * then extra pairs. A set asked for in one collection is handed out again, the same instance, in
 * the next: the same GPUs come back every collection with the same labels, and building a set
 * (sorting a dozen pairs) for each of a GPU's series cost more than reading it. Sets not asked for
 * during a collection are dropped at the end of the next, so processes that end are not held. Not
 * thread-safe: {@link GpuCollector} serialises collections.
 */
final class GpuLabelSets {
  /**
   * A GPU and extra pairs. Not a record: under C1 a record's generated equals and hashCode go
   * through method handles, which cost about as much as building the set; the identities come back
   * as the same instances, so equality mostly stops at reference comparison.
   */
  private static final class Key {
    private final GpuIdentity gpu;
    private final String[] extra;
    private final int hash;

    Key(GpuIdentity gpu, String[] extra) {
      this.gpu = gpu;
      this.extra = extra;
      this.hash = 31 * gpu.index() + Arrays.hashCode(extra);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key other
          && hash == other.hash
          && (gpu == other.gpu || gpu.equals(other.gpu))
          && Arrays.equals(extra, other.extra);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  private final String hostname;
  private final String driverVersion;
  private Map<Key, Labels> previous = new HashMap<>();
  private Map<Key, Labels> current = new HashMap<>();

  /** {@code driverVersion} null leaves the {@code DCGM_FI_DRIVER_VERSION} label out. */
  GpuLabelSets(String hostname, String driverVersion) {
    this.hostname = hostname;
    this.driverVersion = driverVersion;
  }

  /** Starts a collection: what the one before last asked for and the last did not is dropped. */
  void nextCollection() {
    previous = current;
    current = new HashMap<>();
  }

  /**
   * The labels every series of {@code gpu} carries, then {@code extra} name/value pairs. {@code
   * extra} is kept as the key, so it must not change afterwards.
   */
  Labels of(GpuIdentity gpu, String... extra) {
    Key key = new Key(gpu, extra);
    Labels labels = current.get(key);
    if (labels == null) {
      labels = previous.get(key);
      if (labels == null) {
        labels = Labels.of(pairs(gpu, extra));
      }
      current.put(key, labels);
    }
    return labels;
  }

  private String[] pairs(GpuIdentity gpu, String... extra) {
    List<String> pairs = gpu.labelPairs();
    pairs.add("Hostname");
    pairs.add(hostname);
    if (driverVersion != null) {
      pairs.add(DcgmField.DRIVER_VERSION_LABEL);
      pairs.add(driverVersion);
    }
    pairs.addAll(List.of(extra));
    return pairs.toArray(String[]::new);
  }
}
