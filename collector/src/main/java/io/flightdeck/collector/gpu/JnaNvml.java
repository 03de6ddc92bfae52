package io.flightdeck.collector.gpu;

import com.sun.jna.Memory;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link Nvml} over JNA, calling the versioned symbols explicitly (the header's unversioned names
 * are macros that a binding cannot see). The calls of every collection go through {@link
 * NvmlCollectionCalls}, bound directly where the driver allows; the others are looked up per call.
 * Either way a driver lacking a symbol answers {@code NVML_ERROR_FUNCTION_NOT_FOUND} for that
 * reading only. Thread-safe.
 */
final class JnaNvml implements Nvml {
  static final String DEFAULT_LIBRARY = "libnvidia-ml.so.1";

  private static final Logger LOG = LoggerFactory.getLogger(JnaNvml.class);

  private static final int MEMORY_V2_VERSION = 40 | (2 << 24);
  private static final int FIELD_VALUE_SIZE = 40;
  private static final int PROCESS_INFO_SIZE = 24;
  private static final long VALUE_NOT_AVAILABLE = -1L;
  private static final int PROCESS_RETRIES = 3;

  /*
   * GPM structs as NVIDIA's nvml.h declares them (checked against NVIDIA/go-dcgm pkg/dcgm/nvml.h
   * at b7fa315, NVML API 12, and NVIDIA/go-nvml pkg/nvml/nvml.h at 2f9e261, API 13), LP64:
   * nvmlGpmSupport_t {u32 version; u32 isSupportedDevice} is 8 bytes, version
   * NVML_GPM_SUPPORT_VERSION = 1 (a plain 1, not the sizeof-based NVML_STRUCT_VERSION).
   * nvmlGpmMetricsGet_t {u32 version; u32 numMetrics; nvmlGpmSample_t sample1 at 8; sample2 at 16;
   * nvmlGpmMetric_t metrics[NVML_GPM_METRIC_MAX] at 24}, version NVML_GPM_METRICS_GET_VERSION = 1.
   * nvmlGpmMetric_t {u32 metricId; nvmlReturn_t nvmlReturn at 4; double value at 8; char*
   * shortName, longName, unit at 16, 24, 32} is 40 bytes. NVML_GPM_METRIC_MAX grew from 98 through
   * 166 and 210 to 333 (go-nvml's history) while the version stayed 1, so a driver cannot tell which
   * array size its caller allocated: the buffer holds the largest, whatever numMetrics says.
   */
  private static final int GPM_SUPPORT_VERSION = 1;
  private static final int GPM_SUPPORT_SIZE = 8;
  private static final int GPM_METRICS_GET_VERSION = 1;
  private static final int GPM_METRICS_OFFSET = 24;
  private static final int GPM_METRIC_SIZE = 40;
  private static final int GPM_METRIC_MAX = 333;

  /** Fits the largest struct passed, {@code nvmlGpmMetricsGet_t} (13,344 bytes). */
  private static final int SCRATCH_BYTES = 16384;

  private static final ThreadLocal<Memory> SCRATCH =
      ThreadLocal.withInitial(() -> new Memory(SCRATCH_BYTES));

  private final NvmlSymbols symbols;
  private final NvmlCollectionBinding binding;
  private final NvmlCollectionCalls calls;

  private final Map<Integer, String> errorStrings = new ConcurrentHashMap<>();

  private JnaNvml(NvmlSymbols symbols, NvmlCollectionBinding binding) {
    this.symbols = symbols;
    this.binding = binding;
    this.calls = binding.calls();
  }

  /**
   * Loads {@code libraryPath} (a file path or a name the dynamic linker resolves) and initialises
   * NVML. Nothing is loaded before this call, and no failure escapes it.
   */
  static NvmlLoad load(String libraryPath) {
    return load(libraryPath, true);
  }

  /** As {@link #load(String)}; without {@code tryDirect} every call is looked up (for tests). */
  static NvmlLoad load(String libraryPath, boolean tryDirect) {
    NativeLibrary library;
    try {
      library = NativeLibrary.getInstance(libraryPath);
    } catch (LinkageError | RuntimeException e) {
      String message = String.valueOf(e.getMessage());
      // JNA appends every path it tried on further lines; the first line says what went wrong
      // (and ends with a colon that introduced them).
      String first = message.lines().findFirst().orElse(message).strip();
      return NvmlLoad.unavailable(
          first.endsWith(":") ? first.substring(0, first.length() - 1) : first);
    }
    NvmlSymbols symbols = new NvmlSymbols(library);
    NvmlCollectionBinding binding =
        tryDirect
            ? NvmlCollectionBinding.bind(library, symbols)
            : NvmlCollectionBinding.lookedUp(symbols, "looked up per call (asked for)");
    LOG.debug("NVML {}: collection calls {}", libraryPath, binding.description());
    return NvmlLoad.initialise(new JnaNvml(symbols, binding));
  }

  NvmlCollectionBinding binding() {
    return binding;
  }

  @Override
  public void init() throws NvmlException {
    call("nvmlInit_v2");
  }

  @Override
  public void shutdown() throws NvmlException {
    call("nvmlShutdown");
  }

  /**
   * {@inheritDoc} Kept per code: NVML's descriptions are constants, and a GPU that lacks a reading
   * fails that call on every collection.
   */
  @Override
  public String errorString(int code) {
    return errorStrings.computeIfAbsent(code, symbols::errorString);
  }

  @Override
  public String driverVersion() throws NvmlException {
    Memory buf = buffer(80);
    call("nvmlSystemGetDriverVersion", address(buf), 80);
    return string(buf, 0);
  }

  @Override
  public int deviceCount() throws NvmlException {
    Memory out = buffer(4);
    check("nvmlDeviceGetCount_v2", calls.deviceCount(address(out)));
    return out.getInt(0);
  }

  @Override
  public long deviceHandleByIndex(int index) throws NvmlException {
    Memory out = buffer(8);
    check("nvmlDeviceGetHandleByIndex_v2", calls.deviceHandleByIndex(index, address(out)));
    return out.getLong(0);
  }

  @Override
  public String name(long device) throws NvmlException {
    Memory buf = buffer(96);
    call("nvmlDeviceGetName", device, address(buf), 96);
    return string(buf, 0);
  }

  @Override
  public String uuid(long device) throws NvmlException {
    Memory buf = buffer(96);
    call("nvmlDeviceGetUUID", device, address(buf), 96);
    return string(buf, 0);
  }

  @Override
  public String pciBusId(long device) throws NvmlException {
    Memory pci = buffer(68);
    call("nvmlDeviceGetPciInfo_v3", device, address(pci));
    return string(pci, 36);
  }

  @Override
  public Utilization utilizationRates(long device) throws NvmlException {
    Memory out = buffer(8);
    check("nvmlDeviceGetUtilizationRates", calls.utilizationRates(device, address(out)));
    return new Utilization(out.getInt(0), out.getInt(4));
  }

  @Override
  public int encoderUtilization(long device) throws NvmlException {
    Memory out = buffer(8);
    check(
        "nvmlDeviceGetEncoderUtilization",
        calls.encoderUtilization(device, address(out), address(out) + 4));
    return out.getInt(0);
  }

  @Override
  public int decoderUtilization(long device) throws NvmlException {
    Memory out = buffer(8);
    check(
        "nvmlDeviceGetDecoderUtilization",
        calls.decoderUtilization(device, address(out), address(out) + 4));
    return out.getInt(0);
  }

  @Override
  public MemoryInfo memoryInfo(long device) throws NvmlException {
    Memory v2 = buffer(40);
    v2.setInt(0, MEMORY_V2_VERSION);
    try {
      check("nvmlDeviceGetMemoryInfo_v2", calls.memoryInfoV2(device, address(v2)));
      return new MemoryInfo(
          v2.getLong(8), v2.getLong(24), v2.getLong(32), OptionalLong.of(v2.getLong(16)));
    } catch (NvmlException e) {
      if (!e.absent() && e.code() != NvmlException.ARGUMENT_VERSION_MISMATCH) {
        throw e;
      }
    }
    Memory v1 = buffer(24);
    call("nvmlDeviceGetMemoryInfo", device, address(v1));
    return new MemoryInfo(v1.getLong(0), v1.getLong(8), v1.getLong(16), OptionalLong.empty());
  }

  @Override
  public int temperature(long device, int sensor) throws NvmlException {
    Memory out = buffer(4);
    check("nvmlDeviceGetTemperature", calls.temperature(device, sensor, address(out)));
    return out.getInt(0);
  }

  @Override
  public int powerUsageMilliwatts(long device) throws NvmlException {
    Memory out = buffer(4);
    check("nvmlDeviceGetPowerUsage", calls.powerUsage(device, address(out)));
    return out.getInt(0);
  }

  @Override
  public long totalEnergyConsumptionMillijoules(long device) throws NvmlException {
    Memory out = buffer(8);
    check(
        "nvmlDeviceGetTotalEnergyConsumption", calls.totalEnergyConsumption(device, address(out)));
    return out.getLong(0);
  }

  @Override
  public int clockMhz(long device, int clockType) throws NvmlException {
    Memory out = buffer(4);
    check("nvmlDeviceGetClockInfo", calls.clockInfo(device, clockType, address(out)));
    return out.getInt(0);
  }

  @Override
  public long clocksEventReasons(long device) throws NvmlException {
    Memory out = buffer(8);
    try {
      check(
          "nvmlDeviceGetCurrentClocksEventReasons", calls.clocksEventReasons(device, address(out)));
    } catch (NvmlException e) {
      if (e.code() != NvmlException.FUNCTION_NOT_FOUND) {
        throw e;
      }
      // Drivers before the rename only export the throttle-named symbol.
      call("nvmlDeviceGetCurrentClocksThrottleReasons", device, address(out));
    }
    return out.getLong(0);
  }

  @Override
  public int pcieThroughputKbps(long device, int counter) throws NvmlException {
    Memory out = buffer(4);
    check("nvmlDeviceGetPcieThroughput", calls.pcieThroughput(device, counter, address(out)));
    return out.getInt(0);
  }

  @Override
  public int pcieReplayCounter(long device) throws NvmlException {
    Memory out = buffer(4);
    check("nvmlDeviceGetPcieReplayCounter", calls.pcieReplayCounter(device, address(out)));
    return out.getInt(0);
  }

  @Override
  public long totalEccErrors(long device, int errorType, int counter) throws NvmlException {
    Memory out = buffer(8);
    check(
        "nvmlDeviceGetTotalEccErrors",
        calls.totalEccErrors(device, errorType, counter, address(out)));
    return out.getLong(0);
  }

  @Override
  public RemappedRows remappedRows(long device) throws NvmlException {
    Memory out = buffer(16);
    long at = address(out);
    check("nvmlDeviceGetRemappedRows", calls.remappedRows(device, at, at + 4, at + 8, at + 12));
    return new RemappedRows(
        Integer.toUnsignedLong(out.getInt(0)),
        Integer.toUnsignedLong(out.getInt(4)),
        out.getInt(8) != 0,
        out.getInt(12) != 0);
  }

  @Override
  public List<FieldValue> fieldValues(long device, int[] fieldIds, int[] scopeIds)
      throws NvmlException {
    Memory values = buffer((long) FIELD_VALUE_SIZE * fieldIds.length);
    for (int i = 0; i < fieldIds.length; i++) {
      values.setInt((long) FIELD_VALUE_SIZE * i, fieldIds[i]);
      values.setInt((long) FIELD_VALUE_SIZE * i + 4, scopeIds[i]);
    }
    check("nvmlDeviceGetFieldValues", calls.fieldValues(device, fieldIds.length, address(values)));
    List<FieldValue> result = new ArrayList<>(fieldIds.length);
    for (int i = 0; i < fieldIds.length; i++) {
      long base = (long) FIELD_VALUE_SIZE * i;
      result.add(
          new FieldValue(
              values.getInt(base),
              values.getInt(base + 4),
              values.getInt(base + 28),
              fieldValue(values, base + 32, values.getInt(base + 24))));
    }
    return result;
  }

  /** Decodes the value union by {@code nvmlValueType_t}. */
  private static double fieldValue(Pointer values, long offset, int valueType) {
    return switch (valueType) {
      case 0 -> values.getDouble(offset);
      case 1 -> Integer.toUnsignedLong(values.getInt(offset));
      case 4 -> values.getLong(offset);
      case 5 -> values.getInt(offset);
      case 6 -> Short.toUnsignedInt(values.getShort(offset));
      default -> unsigned(values.getLong(offset));
    };
  }

  @Override
  public List<ProcessInfo> computeRunningProcesses(long device) throws NvmlException {
    int capacity = 0;
    for (int attempt = 0; ; attempt++) {
      // One buffer: the count (in: capacity, out: processes) first, the array 8 bytes in.
      Memory buf = buffer(8 + (long) PROCESS_INFO_SIZE * capacity);
      buf.setInt(0, capacity);
      long infos = capacity == 0 ? 0 : address(buf) + 8;
      try {
        check(
            "nvmlDeviceGetComputeRunningProcesses_v3",
            calls.computeRunningProcesses(device, address(buf), infos));
      } catch (NvmlException e) {
        if (e.code() != NvmlException.INSUFFICIENT_SIZE || attempt == PROCESS_RETRIES) {
          throw e;
        }
        // Leave room for processes that start before the next call.
        capacity = buf.getInt(0) + 4;
        continue;
      }
      List<ProcessInfo> result = new ArrayList<>();
      for (int i = 0; i < buf.getInt(0); i++) {
        long base = 8 + (long) PROCESS_INFO_SIZE * i;
        long used = buf.getLong(base + 8);
        result.add(
            new ProcessInfo(
                buf.getInt(base),
                used == VALUE_NOT_AVAILABLE ? OptionalLong.empty() : OptionalLong.of(used)));
      }
      return result;
    }
  }

  @Override
  public long eventSetCreate() throws NvmlException {
    Memory out = buffer(8);
    call("nvmlEventSetCreate", address(out));
    return out.getLong(0);
  }

  @Override
  public long supportedEventTypes(long device) throws NvmlException {
    Memory out = buffer(8);
    call("nvmlDeviceGetSupportedEventTypes", device, address(out));
    return out.getLong(0);
  }

  @Override
  public void registerEvents(long device, long eventTypes, long eventSet) throws NvmlException {
    call("nvmlDeviceRegisterEvents", device, eventTypes, eventSet);
  }

  @Override
  public Event eventSetWait(long eventSet, int timeoutMs) throws NvmlException {
    Memory data = buffer(32);
    // Checked before an exception is built: a timeout is the answer to nearly every wait.
    int rc = calls.eventSetWait(eventSet, address(data), timeoutMs);
    if (rc == NvmlException.TIMEOUT) {
      return null;
    }
    check("nvmlEventSetWait_v2", rc);
    return new Event(data.getLong(0), data.getLong(8), data.getLong(16));
  }

  @Override
  public void eventSetFree(long eventSet) throws NvmlException {
    call("nvmlEventSetFree", eventSet);
  }

  @Override
  public boolean gpmSupported(long device) throws NvmlException {
    Memory support = buffer(GPM_SUPPORT_SIZE);
    support.setInt(0, GPM_SUPPORT_VERSION);
    call("nvmlGpmQueryDeviceSupport", device, address(support));
    return support.getInt(4) != 0;
  }

  @Override
  public long gpmSampleAlloc() throws NvmlException {
    Memory out = buffer(8);
    call("nvmlGpmSampleAlloc", address(out));
    return out.getLong(0);
  }

  @Override
  public void gpmSampleFree(long sample) throws NvmlException {
    call("nvmlGpmSampleFree", sample);
  }

  @Override
  public void gpmSampleGet(long device, long sample) throws NvmlException {
    check("nvmlGpmSampleGet", calls.gpmSampleGet(device, sample));
  }

  @Override
  public List<GpmMetric> gpmMetrics(long older, long newer, int[] metricIds) throws NvmlException {
    if (metricIds.length > GPM_METRIC_MAX) {
      throw new IllegalArgumentException("at most " + GPM_METRIC_MAX + " GPM metrics per call");
    }
    Memory get = buffer(GPM_METRICS_OFFSET + (long) GPM_METRIC_SIZE * GPM_METRIC_MAX);
    get.setInt(0, GPM_METRICS_GET_VERSION);
    get.setInt(4, metricIds.length);
    get.setLong(8, older);
    get.setLong(16, newer);
    for (int i = 0; i < metricIds.length; i++) {
      get.setInt(GPM_METRICS_OFFSET + (long) GPM_METRIC_SIZE * i, metricIds[i]);
    }
    check("nvmlGpmMetricsGet", calls.gpmMetricsGet(address(get)));
    List<GpmMetric> result = new ArrayList<>(metricIds.length);
    for (int i = 0; i < metricIds.length; i++) {
      long base = GPM_METRICS_OFFSET + (long) GPM_METRIC_SIZE * i;
      result.add(new GpmMetric(get.getInt(base), get.getInt(base + 4), get.getDouble(base + 8)));
    }
    return result;
  }

  /** Calls {@code symbol}, looked up per call: for the calls made once, not per collection. */
  private void call(String symbol, Object... args) throws NvmlException {
    check(symbol, symbols.invoke(symbol, args));
  }

  private void check(String symbol, int rc) throws NvmlException {
    if (rc != NvmlException.SUCCESS) {
      throw new NvmlException(symbol, rc, errorString(rc));
    }
  }

  /**
   * {@code size} zeroed bytes for one call's arguments and results, from this thread's scratch
   * memory when they fit: a JNA {@code Memory} per call is a malloc, an entry in JNA's map of live
   * memory and a cleaner to run, for a few bytes read at once. Each method reads its results before
   * the thread's next call; each calling thread has its own. The caller keeps the returned object
   * until it has read the results, which keeps a memory of its own from being freed meanwhile.
   */
  private static Memory buffer(long size) {
    Memory memory = size <= SCRATCH_BYTES ? SCRATCH.get() : new Memory(size);
    memory.setMemory(0, size, (byte) 0);
    return memory;
  }

  /** The address NVML gets for {@code memory}. */
  private static long address(Memory memory) {
    return Pointer.nativeValue(memory);
  }

  private static String string(Memory buf, long offset) {
    return buf.getString(offset, StandardCharsets.UTF_8.name());
  }

  private static double unsigned(long value) {
    return value >= 0 ? value : (value >>> 1) * 2.0 + (value & 1);
  }
}
