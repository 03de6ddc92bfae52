package io.flightdeck.collector.gpu;

import java.util.List;
import java.util.Map;

/**
 * One GPU's readings from one scrape, whatever the source (NVML or nvidia-smi XML). A field missing
 * from {@code values} was not available and is not exported. {@code health} is {@link #HEALTHY} or
 * the reason the GPU could not be read. Immutable.
 */
record GpuReading(
    GpuIdentity identity,
    Map<DcgmField, Double> values,
    List<GpuProcess> processes,
    String health) {
  static final String HEALTHY = "ok";

  GpuReading {
    values = Map.copyOf(values);
    processes = List.copyOf(processes);
  }

  static GpuReading unhealthy(GpuIdentity identity, String reason) {
    return new GpuReading(identity, Map.of(), List.of(), reason);
  }

  boolean healthy() {
    return HEALTHY.equals(health);
  }
}
