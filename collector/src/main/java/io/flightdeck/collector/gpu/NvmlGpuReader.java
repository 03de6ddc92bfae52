package io.flightdeck.collector.gpu;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads one GPU through {@link Nvml} into a {@link GpuReading}, applying nvml.md's error policy:
 * "absent" codes drop the one series, a "lost" code aborts the whole GPU (thrown), anything else
 * drops the series and is reported in {@code failures}. Stateless (GPM samples live in the {@link
 * GpmSampler} passed in); one call per GPU and scrape.
 */
final class NvmlGpuReader {
  private static final int FI_RETIRED_SBE = 29;
  private static final int FI_RETIRED_DBE = 30;
  private static final int FI_RETIRED_PENDING = 31;
  private static final int FI_NVLINK_CRC_FLIT_TOTAL = 38;
  private static final int FI_NVLINK_CRC_DATA_TOTAL = 45;
  private static final int FI_NVLINK_REPLAY_TOTAL = 52;
  private static final int FI_NVLINK_RECOVERY_TOTAL = 59;
  private static final int FI_MEMORY_TEMP = 82;
  private static final int FI_NVLINK_THROUGHPUT_DATA_TX = 138;
  private static final int FI_NVLINK_THROUGHPUT_DATA_RX = 139;
  private static final int ALL_LINKS = -1; // UINT_MAX: the scope for "summed over every link"
  private static final Map<Integer, DcgmField> SINGLE_FIELDS =
      Map.of(
          FI_RETIRED_SBE, DcgmField.RETIRED_SBE,
          FI_RETIRED_DBE, DcgmField.RETIRED_DBE,
          FI_RETIRED_PENDING, DcgmField.RETIRED_PENDING,
          FI_NVLINK_CRC_FLIT_TOTAL, DcgmField.NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL,
          FI_NVLINK_CRC_DATA_TOTAL, DcgmField.NVLINK_CRC_DATA_ERROR_COUNT_TOTAL,
          FI_NVLINK_REPLAY_TOTAL, DcgmField.NVLINK_REPLAY_ERROR_COUNT_TOTAL,
          FI_NVLINK_RECOVERY_TOTAL, DcgmField.NVLINK_RECOVERY_ERROR_COUNT_TOTAL,
          FI_MEMORY_TEMP, DcgmField.MEMORY_TEMP);
  private static final int[] FIELD_IDS = {
    FI_MEMORY_TEMP,
    FI_RETIRED_SBE,
    FI_RETIRED_DBE,
    FI_RETIRED_PENDING,
    FI_NVLINK_CRC_FLIT_TOTAL,
    FI_NVLINK_CRC_DATA_TOTAL,
    FI_NVLINK_REPLAY_TOTAL,
    FI_NVLINK_RECOVERY_TOTAL,
    FI_NVLINK_THROUGHPUT_DATA_TX,
    FI_NVLINK_THROUGHPUT_DATA_RX
  };
  private static final int[] SCOPE_IDS = {0, 0, 0, 0, 0, 0, 0, 0, ALL_LINKS, ALL_LINKS};
  private static final double MIB = 1024.0 * 1024.0;

  /** One NVML call whose failure the policy sorts out. */
  @FunctionalInterface
  private interface Call<T> {
    T get() throws NvmlException;
  }

  private final Nvml nvml;

  NvmlGpuReader(Nvml nvml) {
    this.nvml = nvml;
  }

  /** Reads identity labels; those NVML cannot give are null. */
  GpuIdentity identity(int index, long device, Map<String, String> failures) throws NvmlException {
    return new GpuIdentity(
        index,
        attempt(index, "uuid", failures, () -> nvml.uuid(device)).orElse(null),
        attempt(index, "pciBusId", failures, () -> nvml.pciBusId(device)).orElse(null),
        attempt(index, "name", failures, () -> nvml.name(device)).orElse(null));
  }

  /** Reads one GPU; {@code gpm} keeps its GPM samples between calls. */
  GpuReading read(GpuIdentity identity, long device, GpmSampler gpm, Map<String, String> failures)
      throws NvmlException {
    int index = identity.index();
    Map<DcgmField, Double> values = new EnumMap<>(DcgmField.class);
    put(
        values,
        DcgmField.SM_CLOCK,
        attempt(index, "smClock", failures, () -> (double) nvml.clockMhz(device, Nvml.CLOCK_SM)));
    put(
        values,
        DcgmField.MEM_CLOCK,
        attempt(index, "memClock", failures, () -> (double) nvml.clockMhz(device, Nvml.CLOCK_MEM)));
    put(
        values,
        DcgmField.GPU_TEMP,
        attempt(
            index,
            "temperature",
            failures,
            () -> (double) nvml.temperature(device, Nvml.TEMPERATURE_GPU)));
    put(
        values,
        DcgmField.POWER_USAGE,
        attempt(index, "powerUsage", failures, () -> nvml.powerUsageMilliwatts(device) / 1000.0));
    put(
        values,
        DcgmField.TOTAL_ENERGY_CONSUMPTION,
        attempt(
            index,
            "energy",
            failures,
            () -> (double) nvml.totalEnergyConsumptionMillijoules(device)));
    put(
        values,
        DcgmField.PCIE_REPLAY_COUNTER,
        attempt(
            index,
            "pcieReplay",
            failures,
            () -> (double) Integer.toUnsignedLong(nvml.pcieReplayCounter(device))));
    // NVML's KB are KiB; dcgm-exporter's profiling fields are bytes per second.
    put(
        values,
        DcgmField.PROF_PCIE_TX_BYTES,
        attempt(
            index,
            "pcieTx",
            failures,
            () ->
                Integer.toUnsignedLong(nvml.pcieThroughputKbps(device, Nvml.PCIE_TX_BYTES))
                    * 1024.0));
    put(
        values,
        DcgmField.PROF_PCIE_RX_BYTES,
        attempt(
            index,
            "pcieRx",
            failures,
            () ->
                Integer.toUnsignedLong(nvml.pcieThroughputKbps(device, Nvml.PCIE_RX_BYTES))
                    * 1024.0));
    attempt(index, "utilization", failures, () -> nvml.utilizationRates(device))
        .ifPresent(
            u -> {
              values.put(DcgmField.GPU_UTIL, (double) u.gpu());
              values.put(DcgmField.MEM_COPY_UTIL, (double) u.memory());
            });
    gpm.read(identity.index(), device, values, failures);
    put(
        values,
        DcgmField.ENC_UTIL,
        attempt(index, "encoder", failures, () -> (double) nvml.encoderUtilization(device)));
    put(
        values,
        DcgmField.DEC_UTIL,
        attempt(index, "decoder", failures, () -> (double) nvml.decoderUtilization(device)));
    attempt(index, "memory", failures, () -> nvml.memoryInfo(device))
        .ifPresent(
            m -> {
              // Whole MiB, as DCGM reports them.
              values.put(DcgmField.FB_FREE, Math.floor(m.free() / MIB));
              values.put(DcgmField.FB_USED, Math.floor(m.used() / MIB));
              m.reserved().ifPresent(r -> values.put(DcgmField.FB_RESERVED, Math.floor(r / MIB)));
            });
    ecc(
        values,
        DcgmField.ECC_SBE_VOL_TOTAL,
        Nvml.MEMORY_ERROR_CORRECTED,
        Nvml.ECC_VOLATILE,
        device,
        index,
        failures);
    ecc(
        values,
        DcgmField.ECC_DBE_VOL_TOTAL,
        Nvml.MEMORY_ERROR_UNCORRECTED,
        Nvml.ECC_VOLATILE,
        device,
        index,
        failures);
    ecc(
        values,
        DcgmField.ECC_SBE_AGG_TOTAL,
        Nvml.MEMORY_ERROR_CORRECTED,
        Nvml.ECC_AGGREGATE,
        device,
        index,
        failures);
    ecc(
        values,
        DcgmField.ECC_DBE_AGG_TOTAL,
        Nvml.MEMORY_ERROR_UNCORRECTED,
        Nvml.ECC_AGGREGATE,
        device,
        index,
        failures);
    attempt(index, "remappedRows", failures, () -> nvml.remappedRows(device))
        .ifPresent(
            r -> {
              values.put(DcgmField.CORRECTABLE_REMAPPED_ROWS, (double) r.correctable());
              values.put(DcgmField.UNCORRECTABLE_REMAPPED_ROWS, (double) r.uncorrectable());
              values.put(DcgmField.ROW_REMAP_FAILURE, r.failed() ? 1.0 : 0.0);
            });
    put(
        values,
        DcgmField.CLOCKS_EVENT_REASONS,
        attempt(
            index, "clocksEventReasons", failures, () -> (double) nvml.clocksEventReasons(device)));
    attempt(index, "fieldValues", failures, () -> nvml.fieldValues(device, FIELD_IDS, SCOPE_IDS))
        .ifPresent(fields -> putFields(values, fields));
    List<GpuProcess> processes =
        attempt(index, "processes", failures, () -> nvml.computeRunningProcesses(device))
            .map(
                list ->
                    list.stream().map(p -> new GpuProcess(p.pid(), p.usedMemoryBytes())).toList())
            .orElse(List.of());
    return new GpuReading(identity, values, processes, GpuReading.HEALTHY);
  }

  private void ecc(
      Map<DcgmField, Double> values,
      DcgmField field,
      int errorType,
      int counter,
      long device,
      int index,
      Map<String, String> failures)
      throws NvmlException {
    put(
        values,
        field,
        attempt(
            index,
            field.metricName(),
            failures,
            () -> (double) nvml.totalEccErrors(device, errorType, counter)));
  }

  private static void putFields(Map<DcgmField, Double> values, List<Nvml.FieldValue> fields) {
    Double tx = null;
    Double rx = null;
    for (Nvml.FieldValue field : fields) {
      if (field.returnCode() != NvmlException.SUCCESS) {
        continue; // Per-field codes are nearly always NOT_SUPPORTED; a lost GPU fails other calls.
      }
      switch (field.fieldId()) {
        case FI_NVLINK_THROUGHPUT_DATA_TX -> tx = field.value();
        case FI_NVLINK_THROUGHPUT_DATA_RX -> rx = field.value();
        default -> {
          DcgmField dcgm = SINGLE_FIELDS.get(field.fieldId());
          if (dcgm != null) {
            values.put(dcgm, field.value());
          }
        }
      }
    }
    if (tx != null && rx != null) {
      values.put(DcgmField.NVLINK_BANDWIDTH_TOTAL, tx + rx);
    }
  }

  private static void put(Map<DcgmField, Double> values, DcgmField field, Optional<Double> value) {
    value.ifPresent(v -> values.put(field, v));
  }

  /**
   * Runs one call; a failure worth reporting goes into {@code failures} under {@code "gpu<index>
   * <what>"}, a key built only then: these calls run some twenty times per GPU and collection.
   */
  private static <T> Optional<T> attempt(
      int index, String what, Map<String, String> failures, Call<T> call) throws NvmlException {
    try {
      return Optional.of(call.get());
    } catch (NvmlException e) {
      if (e.lost()) {
        throw e;
      }
      if (!e.absent()) {
        failures.put("gpu" + index + " " + what, e.getMessage());
      }
      return Optional.empty();
    }
  }
}
