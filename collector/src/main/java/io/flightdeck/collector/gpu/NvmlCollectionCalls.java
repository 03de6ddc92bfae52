package io.flightdeck.collector.gpu;

/**
 * The NVML functions that every collection calls (most once per GPU), each returning NVML's return
 * code. Pointers are {@code long} addresses; what they point to is the caller's to lay out and
 * read. Kept apart from {@link JnaNvml}'s other calls so that they can be bound directly ({@link
 * NvmlCollectionBinding}): a call through JNA's generic path costs a few microseconds of argument
 * conversion, some two hundred times per collection with eight GPUs.
 */
interface NvmlCollectionCalls {

  /** {@code nvmlDeviceGetCount_v2} */
  int deviceCount(long count) throws NvmlException;

  /** {@code nvmlDeviceGetHandleByIndex_v2} */
  int deviceHandleByIndex(int index, long device) throws NvmlException;

  /** {@code nvmlDeviceGetUtilizationRates} */
  int utilizationRates(long device, long utilization) throws NvmlException;

  /** {@code nvmlDeviceGetEncoderUtilization} */
  int encoderUtilization(long device, long utilization, long samplingPeriodUs) throws NvmlException;

  /** {@code nvmlDeviceGetDecoderUtilization} */
  int decoderUtilization(long device, long utilization, long samplingPeriodUs) throws NvmlException;

  /** {@code nvmlDeviceGetMemoryInfo_v2} */
  int memoryInfoV2(long device, long memory) throws NvmlException;

  /** {@code nvmlDeviceGetTemperature} */
  int temperature(long device, int sensor, long celsius) throws NvmlException;

  /** {@code nvmlDeviceGetPowerUsage} */
  int powerUsage(long device, long milliwatts) throws NvmlException;

  /** {@code nvmlDeviceGetTotalEnergyConsumption} */
  int totalEnergyConsumption(long device, long millijoules) throws NvmlException;

  /** {@code nvmlDeviceGetClockInfo} */
  int clockInfo(long device, int clockType, long mhz) throws NvmlException;

  /** {@code nvmlDeviceGetCurrentClocksEventReasons} */
  int clocksEventReasons(long device, long reasons) throws NvmlException;

  /** {@code nvmlDeviceGetPcieThroughput} */
  int pcieThroughput(long device, int counter, long kbps) throws NvmlException;

  /** {@code nvmlDeviceGetPcieReplayCounter} */
  int pcieReplayCounter(long device, long count) throws NvmlException;

  /** {@code nvmlDeviceGetTotalEccErrors} */
  int totalEccErrors(long device, int errorType, int counter, long count) throws NvmlException;

  /** {@code nvmlDeviceGetRemappedRows} */
  int remappedRows(long device, long correctable, long uncorrectable, long pending, long failed)
      throws NvmlException;

  /** {@code nvmlDeviceGetFieldValues} */
  int fieldValues(long device, int count, long values) throws NvmlException;

  /** {@code nvmlDeviceGetComputeRunningProcesses_v3} */
  int computeRunningProcesses(long device, long count, long infos) throws NvmlException;

  /** {@code nvmlGpmSampleGet} */
  int gpmSampleGet(long device, long sample) throws NvmlException;

  /** {@code nvmlGpmMetricsGet} */
  int gpmMetricsGet(long metricsGet) throws NvmlException;

  /** {@code nvmlEventSetWait_v2} */
  int eventSetWait(long eventSet, long data, int timeoutMs) throws NvmlException;
}
