package io.flightdeck.collector.gpu;

import java.util.ArrayList;
import java.util.List;

/**
 * Who a GPU is, as dcgm-exporter labels it. {@code uuid}, {@code pciBusId} and {@code modelName}
 * are null when unknown (a GPU lost before it was ever read); such labels are left out.
 */
record GpuIdentity(int index, String uuid, String pciBusId, String modelName) {

  static GpuIdentity indexOnly(int index) {
    return new GpuIdentity(index, null, null, null);
  }

  /** The GPU's labels as alternating names and values: gpu, UUID, pci_bus_id, device, modelName. */
  List<String> labelPairs() {
    List<String> pairs = new ArrayList<>();
    pairs.add("gpu");
    pairs.add(Integer.toString(index));
    add(pairs, "UUID", uuid);
    add(pairs, "pci_bus_id", pciBusId);
    // dcgm-exporter derives the device name from the index, not from the minor number.
    pairs.add("device");
    pairs.add("nvidia" + index);
    add(pairs, "modelName", modelName);
    return pairs;
  }

  private static void add(List<String> pairs, String name, String value) {
    if (value != null && !value.isEmpty()) {
      pairs.add(name);
      pairs.add(value);
    }
  }
}
