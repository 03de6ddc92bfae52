package io.flightdeck.demo;

import io.flightdeck.collector.gpu.Nvml;
import io.flightdeck.collector.gpu.NvmlException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

/**
 * One node's eight H100s as NVML would report them, read from the {@link ClusterModel} at the
 * simulated second {@code now} gives. The GPU that falls off the bus delivers its Xid 79 event once
 * and from then on fails every call with {@code NVML_ERROR_GPU_IS_LOST}, as the driver does.
 * Thread-safe.
 */
final class SimulatedNvml implements Nvml {
  private static final long MIB = 1024L * 1024;
  private static final int[] PCI_BUSES = {0x18, 0x2a, 0x3a, 0x5d, 0x9a, 0xab, 0xba, 0xdb};
  private static final long RESERVED_BYTES = 512 * MIB;
  private static final int XID_FALLEN_OFF_THE_BUS = 79;

  private final ClusterModel model;
  private final int node;
  private final IntSupplier now;
  private final AtomicBoolean xidDelivered = new AtomicBoolean();
  private final AtomicLong nextSample = new AtomicLong(1);
  private final Map<Long, Sampled> samples = new ConcurrentHashMap<>();

  /** What a GPM sample buffer holds: which GPU, at which simulated second. */
  private record Sampled(int gpu, int second) {}

  SimulatedNvml(ClusterModel model, int node, IntSupplier now) {
    this.model = model;
    this.node = node;
    this.now = now;
  }

  @Override
  public void init() {}

  @Override
  public void shutdown() {}

  @Override
  public String errorString(int code) {
    return code == NvmlException.GPU_IS_LOST ? "GPU is lost" : "NVML error " + code;
  }

  @Override
  public String driverVersion() {
    return "550.54.15";
  }

  @Override
  public int deviceCount() {
    return DemoScript.GPUS_PER_NODE;
  }

  @Override
  public long deviceHandleByIndex(int index) throws NvmlException {
    if (index < 0 || index >= DemoScript.GPUS_PER_NODE) {
      throw new NvmlException("nvmlDeviceGetHandleByIndex_v2", 2, "Invalid Argument");
    }
    return index + 1L;
  }

  /** The GPU index of a handle, failing as the driver does once that GPU is lost. */
  private int gpu(long device, String call) throws NvmlException {
    int gpu = (int) device - 1;
    if (model.lost(node, gpu, now.getAsInt())) {
      throw new NvmlException(call, NvmlException.GPU_IS_LOST, "GPU is lost");
    }
    return gpu;
  }

  @Override
  public String name(long device) throws NvmlException {
    gpu(device, "nvmlDeviceGetName");
    return "NVIDIA H100 80GB HBM3";
  }

  @Override
  public String uuid(long device) throws NvmlException {
    int gpu = gpu(device, "nvmlDeviceGetUUID");
    return String.format("GPU-6d1c0a3e-%04x-4e7b-9c1a-0000000000%d%d", 0xd000 + node, node, gpu);
  }

  @Override
  public String pciBusId(long device) throws NvmlException {
    int gpu = gpu(device, "nvmlDeviceGetPciInfo_v3");
    return String.format("00000000:%02X:00.0", PCI_BUSES[gpu]);
  }

  @Override
  public Utilization utilizationRates(long device) throws NvmlException {
    int gpu = gpu(device, "nvmlDeviceGetUtilizationRates");
    int t = now.getAsInt();
    int util = model.utilization(node, gpu, t);
    return new Utilization(util, util * 2 / 5);
  }

  @Override
  public int encoderUtilization(long device) throws NvmlException {
    gpu(device, "nvmlDeviceGetEncoderUtilization");
    return 0;
  }

  @Override
  public int decoderUtilization(long device) throws NvmlException {
    gpu(device, "nvmlDeviceGetDecoderUtilization");
    return 0;
  }

  @Override
  public MemoryInfo memoryInfo(long device) throws NvmlException {
    int gpu = gpu(device, "nvmlDeviceGetMemoryInfo_v2");
    long total = (long) ClusterModel.GPU_MEMORY_TOTAL_MB * MIB;
    long used = (long) model.framebufferUsedMib(node, gpu, now.getAsInt()) * MIB;
    return new MemoryInfo(
        total, total - used - RESERVED_BYTES, used, OptionalLong.of(RESERVED_BYTES));
  }

  @Override
  public int temperature(long device, int sensor) throws NvmlException {
    return model.temperature(node, gpu(device, "nvmlDeviceGetTemperature"), now.getAsInt());
  }

  @Override
  public int powerUsageMilliwatts(long device) throws NvmlException {
    int gpu = gpu(device, "nvmlDeviceGetPowerUsage");
    return (int) Math.round(model.powerWatts(node, gpu, now.getAsInt()) * 1000);
  }

  @Override
  public long totalEnergyConsumptionMillijoules(long device) throws NvmlException {
    int gpu = gpu(device, "nvmlDeviceGetTotalEnergyConsumption");
    return (long) model.energyMillijoules(node, gpu, now.getAsInt());
  }

  @Override
  public int clockMhz(long device, int clockType) throws NvmlException {
    int gpu = gpu(device, "nvmlDeviceGetClockInfo");
    return clockType == CLOCK_MEM ? 2619 : model.smClockMhz(node, gpu, now.getAsInt());
  }

  @Override
  public long clocksEventReasons(long device) throws NvmlException {
    int gpu = gpu(device, "nvmlDeviceGetCurrentClocksEventReasons");
    return model.clockEventReasons(node, gpu, now.getAsInt());
  }

  @Override
  public int pcieThroughputKbps(long device, int counter) throws NvmlException {
    int gpu = gpu(device, "nvmlDeviceGetPcieThroughput");
    return model.pcieKiBps(node, gpu, now.getAsInt(), counter == PCIE_RX_BYTES);
  }

  @Override
  public int pcieReplayCounter(long device) throws NvmlException {
    gpu(device, "nvmlDeviceGetPcieReplayCounter");
    return 0;
  }

  @Override
  public long totalEccErrors(long device, int errorType, int counter) throws NvmlException {
    gpu(device, "nvmlDeviceGetTotalEccErrors");
    return 0;
  }

  @Override
  public RemappedRows remappedRows(long device) throws NvmlException {
    gpu(device, "nvmlDeviceGetRemappedRows");
    return new RemappedRows(0, 0, false, false);
  }

  /** Memory temperature, retired pages, NVLink error counters (0) and NVLink data counters. */
  @Override
  public List<FieldValue> fieldValues(long device, int[] fieldIds, int[] scopeIds)
      throws NvmlException {
    int gpu = gpu(device, "nvmlDeviceGetFieldValues");
    int t = now.getAsInt();
    List<FieldValue> values = new ArrayList<>();
    for (int i = 0; i < fieldIds.length; i++) {
      double value =
          switch (fieldIds[i]) {
            case 82 -> model.temperature(node, gpu, t) + 6; // memory (HBM) temperature
            case 138, 139 -> model.nvlinkKiB(t) / 2; // NVLink data TX, RX in KiB
            default -> 0; // retired pages, NVLink CRC/replay/recovery errors
          };
      values.add(new FieldValue(fieldIds[i], scopeIds[i], 0, value));
    }
    return values;
  }

  @Override
  public List<ProcessInfo> computeRunningProcesses(long device) throws NvmlException {
    gpu(device, "nvmlDeviceGetComputeRunningProcesses_v3");
    return List.of(); // no procfs to describe them: the processes stay unnamed
  }

  @Override
  public long eventSetCreate() {
    return 1;
  }

  @Override
  public long supportedEventTypes(long device) {
    return EVENT_XID_CRITICAL_ERROR;
  }

  @Override
  public void registerEvents(long device, long eventTypes, long eventSet) {}

  /** The Xid 79 of the GPU that falls off the bus, once, when its time has come. */
  @Override
  public Event eventSetWait(long eventSet, int timeoutMs) {
    if (node == DemoScript.LOST_NODE
        && model.lost(node, DemoScript.LOST_GPU, now.getAsInt())
        && xidDelivered.compareAndSet(false, true)) {
      return new Event(DemoScript.LOST_GPU + 1L, EVENT_XID_CRITICAL_ERROR, XID_FALLEN_OFF_THE_BUS);
    }
    return null;
  }

  @Override
  public void eventSetFree(long eventSet) {}

  @Override
  public boolean gpmSupported(long device) throws NvmlException {
    gpu(device, "nvmlGpmQueryDeviceSupport");
    return true;
  }

  @Override
  public long gpmSampleAlloc() {
    return nextSample.getAndIncrement();
  }

  @Override
  public void gpmSampleFree(long sample) {
    samples.remove(sample);
  }

  @Override
  public void gpmSampleGet(long device, long sample) throws NvmlException {
    int gpu = gpu(device, "nvmlGpmSampleGet");
    samples.put(sample, new Sampled(gpu, now.getAsInt()));
  }

  /** Graphics, tensor and DRAM activity in percent, from the newer sample's second. */
  @Override
  public List<GpmMetric> gpmMetrics(long older, long newer, int[] metricIds) {
    Sampled sampled = samples.getOrDefault(newer, new Sampled(0, 0));
    int util = model.utilization(node, sampled.gpu(), sampled.second());
    List<GpmMetric> metrics = new ArrayList<>();
    for (int id : metricIds) {
      double value =
          switch (id) {
            case GPM_METRIC_ANY_TENSOR_UTIL -> util * 0.62;
            case GPM_METRIC_DRAM_BW_UTIL -> util * 0.48;
            default -> util;
          };
      metrics.add(new GpmMetric(id, 0, value));
    }
    return metrics;
  }
}
