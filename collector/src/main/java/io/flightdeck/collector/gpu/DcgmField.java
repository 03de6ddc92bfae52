package io.flightdeck.collector.gpu;

import io.flightdeck.model.MetricType;

/**
 * The dcgm-exporter fields this collector can fill from NVML or nvidia-smi, with dcgm-exporter's
 * metric name, TYPE and HELP exactly as its {@code default-counters.csv} declares them (a test
 * compares them). Values are in dcgm-exporter's units.
 */
enum DcgmField {
  SM_CLOCK("DCGM_FI_DEV_SM_CLOCK", MetricType.GAUGE, "SM clock frequency (in MHz)."),
  MEM_CLOCK("DCGM_FI_DEV_MEM_CLOCK", MetricType.GAUGE, "Memory clock frequency (in MHz)."),
  MEMORY_TEMP("DCGM_FI_DEV_MEMORY_TEMP", MetricType.GAUGE, "Memory temperature (in C)."),
  GPU_TEMP("DCGM_FI_DEV_GPU_TEMP", MetricType.GAUGE, "GPU temperature (in C)."),
  POWER_USAGE("DCGM_FI_DEV_POWER_USAGE", MetricType.GAUGE, "Power draw (in W)."),
  TOTAL_ENERGY_CONSUMPTION(
      "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
      MetricType.COUNTER,
      "Total energy consumption since boot (in mJ)."),
  PCIE_REPLAY_COUNTER(
      "DCGM_FI_DEV_PCIE_REPLAY_COUNTER", MetricType.COUNTER, "Total number of PCIe retries."),
  GPU_UTIL("DCGM_FI_DEV_GPU_UTIL", MetricType.GAUGE, "GPU utilization (in %)."),
  MEM_COPY_UTIL("DCGM_FI_DEV_MEM_COPY_UTIL", MetricType.GAUGE, "Memory utilization (in %)."),
  ENC_UTIL("DCGM_FI_DEV_ENC_UTIL", MetricType.GAUGE, "Encoder utilization (in %)."),
  DEC_UTIL("DCGM_FI_DEV_DEC_UTIL", MetricType.GAUGE, "Decoder utilization (in %)."),
  FB_FREE("DCGM_FI_DEV_FB_FREE", MetricType.GAUGE, "Framebuffer memory free (in MiB)."),
  FB_USED("DCGM_FI_DEV_FB_USED", MetricType.GAUGE, "Framebuffer memory used (in MiB)."),
  FB_RESERVED("DCGM_FI_DEV_FB_RESERVED", MetricType.GAUGE, "Framebuffer memory reserved (in MiB)."),
  ECC_SBE_VOL_TOTAL(
      "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL",
      MetricType.COUNTER,
      "Total number of single-bit volatile ECC errors."),
  ECC_DBE_VOL_TOTAL(
      "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL",
      MetricType.COUNTER,
      "Total number of double-bit volatile ECC errors."),
  ECC_SBE_AGG_TOTAL(
      "DCGM_FI_DEV_ECC_SBE_AGG_TOTAL",
      MetricType.COUNTER,
      "Total number of single-bit persistent ECC errors."),
  ECC_DBE_AGG_TOTAL(
      "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL",
      MetricType.COUNTER,
      "Total number of double-bit persistent ECC errors."),
  RETIRED_SBE(
      "DCGM_FI_DEV_RETIRED_SBE",
      MetricType.COUNTER,
      "Total number of retired pages due to single-bit errors."),
  RETIRED_DBE(
      "DCGM_FI_DEV_RETIRED_DBE",
      MetricType.COUNTER,
      "Total number of retired pages due to double-bit errors."),
  RETIRED_PENDING(
      "DCGM_FI_DEV_RETIRED_PENDING",
      MetricType.COUNTER,
      "Total number of pages pending retirement."),
  NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL(
      "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL",
      MetricType.COUNTER,
      "Total number of NVLink flow-control CRC errors."),
  NVLINK_CRC_DATA_ERROR_COUNT_TOTAL(
      "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL",
      MetricType.COUNTER,
      "Total number of NVLink data CRC errors."),
  NVLINK_REPLAY_ERROR_COUNT_TOTAL(
      "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL",
      MetricType.COUNTER,
      "Total number of NVLink retries."),
  NVLINK_RECOVERY_ERROR_COUNT_TOTAL(
      "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL",
      MetricType.COUNTER,
      "Total number of NVLink recovery errors."),
  NVLINK_BANDWIDTH_TOTAL(
      "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL",
      MetricType.COUNTER,
      "Total number of NVLink bandwidth counters for all lanes."),
  UNCORRECTABLE_REMAPPED_ROWS(
      "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS",
      MetricType.COUNTER,
      "Number of remapped rows for uncorrectable errors"),
  CORRECTABLE_REMAPPED_ROWS(
      "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS",
      MetricType.COUNTER,
      "Number of remapped rows for correctable errors"),
  ROW_REMAP_FAILURE(
      "DCGM_FI_DEV_ROW_REMAP_FAILURE", MetricType.GAUGE, "Whether remapping of rows has failed"),
  PROF_PCIE_TX_BYTES(
      "DCGM_FI_PROF_PCIE_TX_BYTES",
      MetricType.GAUGE,
      "The rate of data transmitted over the PCIe bus - including both protocol headers and data"
          + " payloads - in bytes per second."),
  PROF_PCIE_RX_BYTES(
      "DCGM_FI_PROF_PCIE_RX_BYTES",
      MetricType.GAUGE,
      "The rate of data received over the PCIe bus - including both protocol headers and data"
          + " payloads - in bytes per second."),
  /** From GPM (Hopper and newer), as are the two below: NVML_GPM_METRIC_GRAPHICS_UTIL / 100. */
  PROF_GR_ENGINE_ACTIVE(
      "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
      MetricType.GAUGE,
      "Ratio of time the graphics engine is active."),
  /**
   * NVML_GPM_METRIC_ANY_TENSOR_UTIL / 100: any tensor pipe, as dcgm_fields.h defines field 1004,
   * though the CSV's help names HMMA only.
   */
  PROF_PIPE_TENSOR_ACTIVE(
      "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE",
      MetricType.GAUGE,
      "Ratio of cycles the tensor (HMMA) pipe is active."),
  /** NVML_GPM_METRIC_DRAM_BW_UTIL / 100. */
  PROF_DRAM_ACTIVE(
      "DCGM_FI_PROF_DRAM_ACTIVE",
      MetricType.GAUGE,
      "Ratio of cycles the device memory interface is active sending or receiving data."),
  /** Not in default-counters.csv (DCGM field 112); exported because alerts need it. */
  CLOCKS_EVENT_REASONS(
      "DCGM_FI_DEV_CLOCKS_EVENT_REASONS",
      MetricType.GAUGE,
      "Current clock event reasons (bitmask of NVML clock event reason flags).");

  /** The dcgm-exporter field whose value becomes a label on every series. */
  static final String DRIVER_VERSION_LABEL = "DCGM_FI_DRIVER_VERSION";

  private final String metricName;
  private final MetricType type;
  private final String help;

  DcgmField(String metricName, MetricType type, String help) {
    this.metricName = metricName;
    this.type = type;
    this.help = help;
  }

  String metricName() {
    return metricName;
  }

  MetricType type() {
    return type;
  }

  String help() {
    return help;
  }

  /** The PCIe rate fields are derived from NVML's 20 ms throughput sample, not DCGM profiling. */
  boolean approximated() {
    return this == PROF_PCIE_TX_BYTES || this == PROF_PCIE_RX_BYTES;
  }
}
