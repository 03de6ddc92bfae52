package io.flightdeck.collector.gpu;

import java.util.List;
import java.util.OptionalLong;

/**
 * The few NVML calls the GPU collector needs, in NVML's own units (milliwatts, millijoules, KB/s,
 * bytes). Every call either returns a reading or throws {@link NvmlException} with NVML's return
 * code; none returns a sentinel.
 *
 * <p>Contract: {@link #init()} before anything else and {@link #shutdown()} once at the end (NVML
 * counts inits). Between them all methods are thread-safe, as NVML is, but some block (PCIe
 * throughput about 20 ms), so call them from a worker thread, never from an HTTP thread. Device
 * handles are opaque addresses valid until {@link #shutdown()}; event sets until {@link
 * #eventSetFree}. Returned records and lists belong to the caller.
 */
public interface Nvml {

  /** {@code nvmlUtilization_t}: percent of the last sample period. */
  record Utilization(int gpu, int memory) {}

  /**
   * Framebuffer memory in bytes. {@code reserved} is present only from the v2 struct; with v1,
   * {@code used} includes the reserved part.
   */
  record MemoryInfo(long total, long free, long used, OptionalLong reserved) {}

  /**
   * One entry of {@code nvmlDeviceGetFieldValues}: its own return code, and the value converted to
   * double whatever NVML's value type was.
   */
  record FieldValue(int fieldId, int scopeId, int returnCode, double value) {}

  /** {@code nvmlDeviceGetRemappedRows}: counts and the pending/failure flags. */
  record RemappedRows(long correctable, long uncorrectable, boolean pending, boolean failed) {}

  /** A running process: host pid and used GPU memory in bytes, absent when NVML cannot tell. */
  record ProcessInfo(int pid, OptionalLong usedMemoryBytes) {}

  /** {@code nvmlEventData_t}: the device handle, the event bit and its data (the Xid number). */
  record Event(long device, long eventType, long eventData) {}

  /**
   * One entry of {@code nvmlGpmMetricsGet}: the metric id, its own return code, and the value
   * (percent for the utilisation metrics) valid only when the code is success.
   */
  record GpmMetric(int metricId, int returnCode, double value) {}

  int TEMPERATURE_GPU = 0;
  int CLOCK_SM = 1;
  int CLOCK_MEM = 2;
  int PCIE_TX_BYTES = 0;
  int PCIE_RX_BYTES = 1;
  int MEMORY_ERROR_CORRECTED = 0;
  int MEMORY_ERROR_UNCORRECTED = 1;
  int ECC_VOLATILE = 0;
  int ECC_AGGREGATE = 1;
  long EVENT_XID_CRITICAL_ERROR = 0x8L;
  int GPM_METRIC_GRAPHICS_UTIL = 1;
  int GPM_METRIC_ANY_TENSOR_UTIL = 5;
  int GPM_METRIC_DRAM_BW_UTIL = 10;

  void init() throws NvmlException;

  void shutdown() throws NvmlException;

  /** {@code nvmlErrorString}: NVML's text for a return code. */
  String errorString(int code);

  String driverVersion() throws NvmlException;

  int deviceCount() throws NvmlException;

  long deviceHandleByIndex(int index) throws NvmlException;

  String name(long device) throws NvmlException;

  String uuid(long device) throws NvmlException;

  /** The domain-qualified bus id of {@code nvmlPciInfo_t}, such as {@code 00000000:07:00.0}. */
  String pciBusId(long device) throws NvmlException;

  Utilization utilizationRates(long device) throws NvmlException;

  /** Encoder utilisation in percent. */
  int encoderUtilization(long device) throws NvmlException;

  /** Decoder utilisation in percent. */
  int decoderUtilization(long device) throws NvmlException;

  /** The v2 struct when the driver has it, else v1. */
  MemoryInfo memoryInfo(long device) throws NvmlException;

  /** Degrees Celsius of {@code sensor} ({@link #TEMPERATURE_GPU}). */
  int temperature(long device, int sensor) throws NvmlException;

  int powerUsageMilliwatts(long device) throws NvmlException;

  long totalEnergyConsumptionMillijoules(long device) throws NvmlException;

  int clockMhz(long device, int clockType) throws NvmlException;

  /** The clock event (throttle) reasons bitmask; uses the older throttle symbol on old drivers. */
  long clocksEventReasons(long device) throws NvmlException;

  /** KB/s over a 20 ms window; {@code counter} is {@link #PCIE_TX_BYTES} or RX. */
  int pcieThroughputKbps(long device, int counter) throws NvmlException;

  int pcieReplayCounter(long device) throws NvmlException;

  /**
   * Total ECC errors; {@code errorType} corrected/uncorrected, {@code counter} volatile/aggregate.
   */
  long totalEccErrors(long device, int errorType, int counter) throws NvmlException;

  RemappedRows remappedRows(long device) throws NvmlException;

  /**
   * Field values (memory temperature, NVLink counters, retired pages...) in one driver call; each
   * entry carries its own return code. {@code scopeIds} pairs with {@code fieldIds}.
   */
  List<FieldValue> fieldValues(long device, int[] fieldIds, int[] scopeIds) throws NvmlException;

  /** Compute processes, sized and retried inside so that processes starting meanwhile fit. */
  List<ProcessInfo> computeRunningProcesses(long device) throws NvmlException;

  long eventSetCreate() throws NvmlException;

  /** The event bits {@code device} can deliver. */
  long supportedEventTypes(long device) throws NvmlException;

  void registerEvents(long device, long eventTypes, long eventSet) throws NvmlException;

  /**
   * The next event, waiting at most {@code timeoutMs} for one; null when none came ({@code
   * NVML_ERROR_TIMEOUT}, the usual answer, is not an error).
   */
  Event eventSetWait(long eventSet, int timeoutMs) throws NvmlException;

  void eventSetFree(long eventSet) throws NvmlException;

  /** {@code nvmlGpmQueryDeviceSupport}: whether the device offers GPM (Hopper and newer). */
  boolean gpmSupported(long device) throws NvmlException;

  /** A GPM sample buffer, valid until {@link #gpmSampleFree}. */
  long gpmSampleAlloc() throws NvmlException;

  void gpmSampleFree(long sample) throws NvmlException;

  /** Reads the device's GPM counters into {@code sample}. */
  void gpmSampleGet(long device, long sample) throws NvmlException;

  /**
   * The rates of {@code metricIds} between two samples of one device, the older first; NVML wants
   * them at least 100 ms apart. Each entry carries its own return code.
   */
  List<GpmMetric> gpmMetrics(long older, long newer, int[] metricIds) throws NvmlException;
}
