package io.flightdeck.collector.gpu;

import io.flightdeck.collector.host.MetricFamily;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The node agent's GPU section under dcgm-exporter's names: loads NVML on {@link #start()} (never
 * earlier), reads every GPU and the Xid events queued since the last one per {@link #collect()},
 * and stops on {@link #close()}. Without NVML it serves no GPU series and one failure, {@code NVML
 * not available: <reason>}. A GPU that is lost stays in {@code flightdeck_gpu_healthy} with value 0
 * and is not polled again until the collector is restarted.
 *
 * <p>Thread-safe: calls are serialised. A scrape makes blocking NVML calls (about 40 ms per GPU for
 * PCIe throughput), so call {@link #collect()} from a worker, not from an HTTP thread.
 */
public final class GpuCollector implements AutoCloseable {

  /** One scrape: the families, and what failed by call (series left out), sorted. */
  public record Scrape(List<MetricFamily> families, Map<String, String> failures) {}

  private final Supplier<NvmlLoad> loader;
  private final String hostname;
  private final ProcessInfoReader processes;
  private final LongSupplier nanoTime;
  private final XidCatalog catalog = XidCatalog.load();
  private final Map<Integer, GpuIdentity> identities = new TreeMap<>();
  private final Map<Integer, String> lost = new TreeMap<>();
  private final Map<String, String> startFailures = new TreeMap<>();
  private Nvml nvml;
  private GpmSampler gpm;
  private String unavailable;
  private GpuFamilies families;
  private XidMonitor xids;

  /** {@code nanoTime} paces GPM samples; {@link System#nanoTime} but in tests. */
  GpuCollector(
      Supplier<NvmlLoad> loader,
      String hostname,
      ProcessInfoReader processes,
      LongSupplier nanoTime) {
    this.loader = loader;
    this.hostname = hostname;
    this.processes = processes;
    this.nanoTime = nanoTime;
  }

  public static GpuCollector create(GpuCollectorOptions options) {
    return new GpuCollector(
        () -> JnaNvml.load(options.nvmlLibrary()),
        options.hostname(),
        new ProcessInfoReader(options.procRoot()),
        System::nanoTime);
  }

  /**
   * A collector over an {@link Nvml} the caller provides instead of the driver, such as the demo's
   * simulated GPUs; process details are not read (no procfs of those GPUs' processes).
   */
  public static GpuCollector create(Nvml nvml, String hostname) {
    return new GpuCollector(
        () -> NvmlLoad.initialise(nvml),
        hostname,
        new ProcessInfoReader(Path.of("/nonexistent-proc")),
        System::nanoTime);
  }

  /** Loads and initialises NVML, learns the GPUs and registers them for Xid events. */
  public synchronized void start() {
    switch (loader.get()) {
      case NvmlLoad.Unavailable none -> unavailable = none.reason();
      case NvmlLoad.Available available -> nvml = available.nvml();
    }
    if (nvml == null) {
      return;
    }
    gpm = new GpmSampler(nvml, nanoTime);
    NvmlGpuReader reader = new NvmlGpuReader(nvml);
    String driverVersion = null;
    try {
      driverVersion = nvml.driverVersion();
    } catch (NvmlException e) {
      startFailures.put("driverVersion", e.getMessage());
    }
    families = new GpuFamilies(hostname, driverVersion);
    List<XidMonitor.Device> devices = new ArrayList<>();
    int count = deviceCount(startFailures);
    for (int index = 0; index < count; index++) {
      try {
        long handle = nvml.deviceHandleByIndex(index);
        GpuIdentity identity = reader.identity(index, handle, startFailures);
        identities.put(index, identity);
        devices.add(new XidMonitor.Device(identity, handle));
      } catch (NvmlException e) {
        lost.put(index, healthReason(e));
      }
    }
    try {
      xids = new XidMonitor(nvml, catalog, devices);
    } catch (NvmlException e) {
      startFailures.put("xid event set", e.getMessage());
    }
  }

  public synchronized Scrape collect() {
    if (unavailable != null) {
      return new Scrape(List.of(), Map.of("nvml", unavailable));
    }
    if (nvml == null) {
      throw new IllegalStateException("GpuCollector.collect() before start()");
    }
    Map<String, String> failures = new TreeMap<>(startFailures);
    NvmlGpuReader reader = new NvmlGpuReader(nvml);
    TreeSet<Integer> indices = new TreeSet<>(identities.keySet());
    indices.addAll(lost.keySet());
    for (int index = 0, count = deviceCount(failures); index < count; index++) {
      indices.add(index);
    }
    List<GpuReading> readings = new ArrayList<>();
    for (int index : indices) {
      readings.add(readGpu(index, reader, failures));
    }
    List<MetricFamily> result = new ArrayList<>(families.render(readings, processes::read));
    if (xids != null) {
      xids.drain();
      result.addAll(xids.families(families));
      failures.putAll(xids.failures());
    }
    return new Scrape(Collections.unmodifiableList(result), Collections.unmodifiableMap(failures));
  }

  private GpuReading readGpu(int index, NvmlGpuReader reader, Map<String, String> failures) {
    GpuIdentity known = identities.getOrDefault(index, GpuIdentity.indexOnly(index));
    String reason = lost.get(index);
    if (reason != null) {
      return GpuReading.unhealthy(known, reason);
    }
    try {
      long handle = nvml.deviceHandleByIndex(index);
      GpuIdentity identity = identities.get(index);
      if (identity == null) {
        identity = reader.identity(index, handle, failures);
        identities.put(index, identity);
      }
      return reader.read(identity, handle, gpm, failures);
    } catch (NvmlException e) {
      // nvml.md: stop polling a lost handle; the health gauge keeps the GPU visible.
      lost.put(index, healthReason(e));
      gpm.forget(index);
      return GpuReading.unhealthy(identities.getOrDefault(index, known), healthReason(e));
    }
  }

  private int deviceCount(Map<String, String> failures) {
    try {
      return nvml.deviceCount();
    } catch (NvmlException e) {
      failures.put("deviceCount", e.getMessage());
      return 0;
    }
  }

  /** The {@code reason} label of an unhealthy GPU. */
  static String healthReason(NvmlException e) {
    return switch (e.code()) {
      case NvmlException.GPU_IS_LOST -> "gpu_is_lost";
      case NvmlException.RESET_REQUIRED -> "reset_required";
      case NvmlException.GPU_NOT_FOUND -> "gpu_not_found";
      case NvmlException.LIB_RM_VERSION_MISMATCH -> "driver_version_mismatch";
      default -> "nvml_error_" + e.code();
    };
  }

  /**
   * Frees the GPM buffers and the Xid event set and shuts NVML down; a failure here is not worth an
   * exception.
   */
  @Override
  public synchronized void close() {
    if (nvml == null) {
      return;
    }
    gpm.close(); // GPM buffers belong to NVML: free them before it shuts down
    try {
      if (xids != null) {
        xids.close();
      }
      nvml.shutdown();
    } catch (NvmlException e) {
      startFailures.put("shutdown", e.getMessage());
    } finally {
      nvml = null;
    }
  }
}
