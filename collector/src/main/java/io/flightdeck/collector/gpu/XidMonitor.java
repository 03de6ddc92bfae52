package io.flightdeck.collector.gpu;

import io.flightdeck.collector.host.MetricFamily;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Drains NVML's event set for Xid critical errors on a dedicated thread ({@code nvml-xid-monitor})
 * and keeps, per GPU, the last Xid (dcgm-exporter's {@code DCGM_FI_DEV_XID_ERRORS}) and a count per
 * Xid code. Each wait is bounded, so {@link #close()} returns within about one wait. Thread-safe:
 * {@link #families} may be called while the thread records events.
 *
 * <p>Only Xids that happen while the monitor runs are seen; the kernel log holds earlier ones.
 */
final class XidMonitor implements AutoCloseable {
  static final String XID_ERRORS = "DCGM_FI_DEV_XID_ERRORS";
  static final String XID_ERRORS_TOTAL = "flightdeck_gpu_xid_errors_total";

  /**
   * How long one wait may block, which bounds how long {@link #close()} takes. Each timeout wakes
   * the thread, and on a small VM one wake-up costs about as much CPU as the NVML calls of a whole
   * collection of eight GPUs (bench/README.md, agent section).
   */
  static final int WAIT_MS = 2000;

  /** A GPU to watch: its labels and its NVML handle. */
  record Device(GpuIdentity identity, long handle) {}

  private record XidKey(int gpu, long xid) {}

  private final Nvml nvml;
  private final XidCatalog catalog;
  private final Map<Long, GpuIdentity> byHandle = new ConcurrentHashMap<>();
  private final Map<Integer, GpuIdentity> byIndex = new ConcurrentHashMap<>();
  private final Map<Integer, Long> lastXid = new ConcurrentHashMap<>();
  private final Map<XidKey, AtomicLong> counts = new ConcurrentHashMap<>();
  private final Map<String, String> failures = new ConcurrentHashMap<>();
  private final long eventSet;
  private volatile boolean running;
  private Thread thread;

  /**
   * Creates the event set and registers every device that supports Xid events; a device that cannot
   * register (unsupported, no permission) is listed in {@link #failures()} and not watched.
   */
  XidMonitor(Nvml nvml, XidCatalog catalog, List<Device> devices) throws NvmlException {
    this.nvml = nvml;
    this.catalog = catalog;
    this.eventSet = nvml.eventSetCreate();
    for (Device device : devices) {
      int index = device.identity().index();
      try {
        long types = nvml.supportedEventTypes(device.handle()) & Nvml.EVENT_XID_CRITICAL_ERROR;
        if (types == 0) {
          failures.put("gpu" + index + " xid events", "not supported by this GPU");
          continue;
        }
        nvml.registerEvents(device.handle(), types, eventSet);
        byHandle.put(device.handle(), device.identity());
        byIndex.put(index, device.identity());
      } catch (NvmlException e) {
        failures.put("gpu" + index + " xid events", e.getMessage());
      }
    }
  }

  /** Starts the draining thread. */
  synchronized void start() {
    running = true;
    thread = new Thread(this::run, "nvml-xid-monitor");
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    while (running) {
      try {
        pollOnce(WAIT_MS);
      } catch (NvmlException e) {
        failures.put("xid event wait", e.getMessage());
        // An unexpected wait error would repeat at once; pace the loop instead of spinning.
        try {
          Thread.sleep(WAIT_MS);
        } catch (InterruptedException interrupted) {
          return;
        }
      }
    }
  }

  /**
   * Waits at most {@code timeoutMs} for one event and records it. Returns whether an event came.
   */
  boolean pollOnce(int timeoutMs) throws NvmlException {
    Nvml.Event event;
    try {
      event = nvml.eventSetWait(eventSet, timeoutMs);
    } catch (NvmlException e) {
      if (e.code() == NvmlException.TIMEOUT) {
        return false;
      }
      throw e;
    }
    GpuIdentity gpu = byHandle.get(event.device());
    if (gpu != null && (event.eventType() & Nvml.EVENT_XID_CRITICAL_ERROR) != 0) {
      lastXid.put(gpu.index(), event.eventData());
      counts
          .computeIfAbsent(new XidKey(gpu.index(), event.eventData()), k -> new AtomicLong())
          .incrementAndGet();
    }
    return true;
  }

  /** Registration and wait errors so far, by what failed. */
  Map<String, String> failures() {
    return Map.copyOf(failures);
  }

  /**
   * The last-Xid gauge for every watched GPU (0 with {@code err_msg="No Error"} until the first
   * Xid, as dcgm-exporter shows it) and the per-code counter.
   */
  List<MetricFamily> families(GpuFamilies labels) {
    MetricFamily last = MetricFamily.gauge(XID_ERRORS, "Value of the last XID error encountered.");
    for (GpuIdentity gpu : new TreeMap<>(byIndex).values()) {
      long xid = lastXid.getOrDefault(gpu.index(), 0L);
      last.add(
          xid,
          labels.labels(gpu, "err_code", Long.toString(xid), "err_msg", catalog.describe(xid)));
    }
    MetricFamily total =
        MetricFamily.counter(
            XID_ERRORS_TOTAL, "Xid critical errors reported by NVML, by Xid code.");
    counts.forEach(
        (key, count) ->
            total.add(
                count.get(),
                labels.labels(
                    byIndex.get(key.gpu()),
                    "xid",
                    Long.toString(key.xid()),
                    "description",
                    catalog.describe(key.xid()))));
    List<MetricFamily> families = new ArrayList<>();
    if (!last.samples().isEmpty()) {
      families.add(last);
    }
    if (!total.samples().isEmpty()) {
      families.add(total);
    }
    return families;
  }

  /** Stops the thread (within one wait) and frees the event set. */
  @Override
  public synchronized void close() throws NvmlException {
    running = false;
    if (thread != null) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        // The thread may still be inside a wait on the set: leaking it beats freeing it under NVML.
        Thread.currentThread().interrupt();
        return;
      }
    }
    nvml.eventSetFree(eventSet);
  }
}
