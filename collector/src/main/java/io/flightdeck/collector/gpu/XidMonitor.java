package io.flightdeck.collector.gpu;

import io.flightdeck.collector.host.MetricFamily;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Drains NVML's event set for Xid critical errors at each collection ({@link #drain()}) and keeps,
 * per GPU, the last Xid (dcgm-exporter's {@code DCGM_FI_DEV_XID_ERRORS}) and a count per Xid code.
 * NVML holds the events delivered to the set until a wait reads them (a wait returns at once when
 * one is ready), so reading them when the collection runs, without waiting, counts what a thread
 * blocked in the wait would, up to one collection later; only a burst beyond what the driver holds
 * between two collections would be lost (not seen on real hardware yet). A waiting thread woke at
 * every wait's timeout (every 2 s), and on a small VM each wake-up cost about a twelfth of the
 * agent's CPU (bench/README.md, agent section). Thread-safe: {@link #families} may be called while
 * another thread drains.
 *
 * <p>Only Xids that happen while the monitor exists are seen; the kernel log holds earlier ones.
 */
final class XidMonitor implements AutoCloseable {
  static final String XID_ERRORS = "DCGM_FI_DEV_XID_ERRORS";
  static final String XID_ERRORS_TOTAL = "flightdeck_gpu_xid_errors_total";

  /**
   * At most this many events per drain, so that a driver that kept answering with events could not
   * hold a collection forever; the rest wait in the set for the next one.
   */
  static final int MAX_EVENTS_PER_DRAIN = 1024;

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

  /**
   * Records the events queued in the set, without waiting for more; returns how many came. A wait
   * error is kept in {@link #failures()} under {@code "xid event wait"} until a drain succeeds.
   */
  synchronized int drain() {
    int events = 0;
    try {
      while (events < MAX_EVENTS_PER_DRAIN && pollOnce(0)) {
        events++;
      }
      failures.remove("xid event wait");
    } catch (NvmlException e) {
      failures.put("xid event wait", e.getMessage());
    }
    return events;
  }

  /**
   * Waits at most {@code timeoutMs} for one event and records it. Returns whether an event came.
   */
  boolean pollOnce(int timeoutMs) throws NvmlException {
    Nvml.Event event = nvml.eventSetWait(eventSet, timeoutMs);
    if (event == null) {
      return false;
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

  /** Frees the event set. */
  @Override
  public synchronized void close() throws NvmlException {
    nvml.eventSetFree(eventSet);
  }
}
