package io.flightdeck.collector.gpu;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The {@code DCGM_FI_PROF_*} activity ratios from NVML's GPM (Hopper and newer). GPM reports rates
 * between two samples of a GPU's counters, so each GPU has two sample buffers used in turn: every
 * collection samples once into the spare buffer and reads the rates since the previous collection's
 * sample. A GPU's first collection (or the first after a failed sample) has nothing to compare with
 * and reports none. Whether a GPU supports GPM is asked once; a GPU without it, or a driver without
 * the GPM symbols, gets no ratios and no failure. NVML's counters refresh about every 100 ms
 * (nvml.h), so a collection less than that after a GPU's last sample (the server collects once at
 * start and again at once) keeps that sample and reports no ratios for the GPU. Buffers are freed
 * by {@link #forget} and {@link #close()}, which must come before NVML shuts down. Not thread-safe:
 * {@link GpuCollector} serialises calls.
 */
final class GpmSampler implements AutoCloseable {
  private static final int[] METRIC_IDS = {
    Nvml.GPM_METRIC_GRAPHICS_UTIL, Nvml.GPM_METRIC_ANY_TENSOR_UTIL, Nvml.GPM_METRIC_DRAM_BW_UTIL
  };
  private static final DcgmField[] FIELDS = {
    DcgmField.PROF_GR_ENGINE_ACTIVE, DcgmField.PROF_PIPE_TENSOR_ACTIVE, DcgmField.PROF_DRAM_ACTIVE
  };

  /** GPM answers percent; DCGM's fields are ratios. */
  private static final double PERCENT = 100.0;

  private static final long MIN_INTERVAL_NANOS = 100_000_000L;

  /**
   * A GPU's two buffers: {@code latest} holds the last sample, taken at {@code sampledAt}, once
   * {@code sampled}.
   */
  private static final class Buffers {
    long latest;
    long spare;
    boolean sampled;
    long sampledAt;

    Buffers(long latest, long spare) {
      this.latest = latest;
      this.spare = spare;
    }
  }

  private final Nvml nvml;
  private final LongSupplier nanoTime;
  private final Map<Integer, Buffers> buffers = new HashMap<>();
  private final Set<Integer> unsupported = new HashSet<>();

  /** {@code nanoTime} is {@link System#nanoTime} but in tests. */
  GpmSampler(Nvml nvml, LongSupplier nanoTime) {
    this.nvml = nvml;
    this.nanoTime = nanoTime;
  }

  /**
   * Samples GPU {@code index} and puts the ratios since its previous sample into {@code values};
   * failures go to {@code failures} as {@link NvmlGpuReader} reports them ({@code gpu<index> gpm}).
   *
   * @throws NvmlException when the GPU is lost
   */
  void read(int index, long device, Map<DcgmField, Double> values, Map<String, String> failures)
      throws NvmlException {
    if (unsupported.contains(index)) {
      return;
    }
    Buffers gpu = buffers.get(index);
    if (gpu == null) {
      gpu = allocate(index, device, failures);
      if (gpu == null) {
        return;
      }
    }
    long now = nanoTime.getAsLong();
    if (gpu.sampled && now - gpu.sampledAt < MIN_INTERVAL_NANOS) {
      return;
    }
    try {
      nvml.gpmSampleGet(device, gpu.spare);
    } catch (NvmlException e) {
      // The next good sample would span the gap; start over from it instead.
      gpu.sampled = false;
      report(e, index, "gpmSample", failures);
      return;
    }
    long previous = gpu.latest;
    boolean compare = gpu.sampled;
    gpu.latest = gpu.spare;
    gpu.spare = previous;
    gpu.sampled = true;
    gpu.sampledAt = now;
    if (!compare) {
      return;
    }
    List<Nvml.GpmMetric> metrics;
    try {
      metrics = nvml.gpmMetrics(previous, gpu.latest, METRIC_IDS);
    } catch (NvmlException e) {
      report(e, index, "gpmMetrics", failures);
      return;
    }
    for (int i = 0; i < FIELDS.length; i++) {
      Nvml.GpmMetric metric = metrics.get(i);
      // A per-metric code is a metric this GPU lacks; its value is not valid.
      if (metric.returnCode() == NvmlException.SUCCESS) {
        values.put(FIELDS[i], metric.value() / PERCENT);
      }
    }
  }

  /** Asks for support and allocates the buffers; null when there are none to use (yet). */
  private Buffers allocate(int index, long device, Map<String, String> failures)
      throws NvmlException {
    long first = 0;
    try {
      if (!nvml.gpmSupported(device)) {
        unsupported.add(index);
        return null;
      }
      first = nvml.gpmSampleAlloc();
      Buffers gpu = new Buffers(first, nvml.gpmSampleAlloc());
      buffers.put(index, gpu);
      return gpu;
    } catch (NvmlException e) {
      if (first != 0) {
        free(first);
      }
      if (e.absent()) {
        // Pre-Hopper or a driver without GPM: asking again each collection would only cost.
        unsupported.add(index);
      }
      report(e, index, "gpm", failures);
      return null;
    }
  }

  /** Frees the buffers of a GPU the collector gave up (lost, or its handle gone). */
  void forget(int index) {
    Buffers gpu = buffers.remove(index);
    if (gpu != null) {
      free(gpu.latest);
      free(gpu.spare);
    }
  }

  @Override
  public void close() {
    for (Buffers gpu : buffers.values()) {
      free(gpu.latest);
      free(gpu.spare);
    }
    buffers.clear();
  }

  private void free(long sample) {
    try {
      nvml.gpmSampleFree(sample);
    } catch (NvmlException e) {
      // Only an invalid pointer fails (nvml.h), and then there is nothing left to free.
    }
  }

  /** The key is built only on failure: most collections have none. */
  private static void report(NvmlException e, int index, String call, Map<String, String> failures)
      throws NvmlException {
    if (e.lost()) {
      throw e;
    }
    if (!e.absent()) {
      failures.put("gpu" + index + " " + call, e.getMessage());
    }
  }
}
