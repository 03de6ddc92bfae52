package io.flightdeck.collector.gpu;

/**
 * {@link NvmlCollectionCalls} through JNA direct mapping: {@code static native} methods named after
 * NVML's symbols, registered to one library by {@link NvmlCollectionBinding}, which calls them
 * without JNA's per-call argument conversion. Never used as compiled: each library gets its own
 * hidden copy of this class, because JNI binds a class's native methods to one library at a time.
 */
final class DirectNvmlCollectionCalls implements NvmlCollectionCalls {

  @Override
  public int deviceCount(long count) {
    return nvmlDeviceGetCount_v2(count);
  }

  @Override
  public int deviceHandleByIndex(int index, long device) {
    return nvmlDeviceGetHandleByIndex_v2(index, device);
  }

  @Override
  public int utilizationRates(long device, long utilization) {
    return nvmlDeviceGetUtilizationRates(device, utilization);
  }

  @Override
  public int encoderUtilization(long device, long utilization, long samplingPeriodUs) {
    return nvmlDeviceGetEncoderUtilization(device, utilization, samplingPeriodUs);
  }

  @Override
  public int decoderUtilization(long device, long utilization, long samplingPeriodUs) {
    return nvmlDeviceGetDecoderUtilization(device, utilization, samplingPeriodUs);
  }

  @Override
  public int memoryInfoV2(long device, long memory) {
    return nvmlDeviceGetMemoryInfo_v2(device, memory);
  }

  @Override
  public int temperature(long device, int sensor, long celsius) {
    return nvmlDeviceGetTemperature(device, sensor, celsius);
  }

  @Override
  public int powerUsage(long device, long milliwatts) {
    return nvmlDeviceGetPowerUsage(device, milliwatts);
  }

  @Override
  public int totalEnergyConsumption(long device, long millijoules) {
    return nvmlDeviceGetTotalEnergyConsumption(device, millijoules);
  }

  @Override
  public int clockInfo(long device, int clockType, long mhz) {
    return nvmlDeviceGetClockInfo(device, clockType, mhz);
  }

  @Override
  public int clocksEventReasons(long device, long reasons) {
    return nvmlDeviceGetCurrentClocksEventReasons(device, reasons);
  }

  @Override
  public int pcieThroughput(long device, int counter, long kbps) {
    return nvmlDeviceGetPcieThroughput(device, counter, kbps);
  }

  @Override
  public int pcieReplayCounter(long device, long count) {
    return nvmlDeviceGetPcieReplayCounter(device, count);
  }

  @Override
  public int totalEccErrors(long device, int errorType, int counter, long count) {
    return nvmlDeviceGetTotalEccErrors(device, errorType, counter, count);
  }

  @Override
  public int remappedRows(
      long device, long correctable, long uncorrectable, long pending, long failed) {
    return nvmlDeviceGetRemappedRows(device, correctable, uncorrectable, pending, failed);
  }

  @Override
  public int fieldValues(long device, int count, long values) {
    return nvmlDeviceGetFieldValues(device, count, values);
  }

  @Override
  public int computeRunningProcesses(long device, long count, long infos) {
    return nvmlDeviceGetComputeRunningProcesses_v3(device, count, infos);
  }

  @Override
  public int gpmSampleGet(long device, long sample) {
    return nvmlGpmSampleGet(device, sample);
  }

  @Override
  public int gpmMetricsGet(long metricsGet) {
    return nvmlGpmMetricsGet(metricsGet);
  }

  @Override
  public int eventSetWait(long eventSet, long data, int timeoutMs) {
    return nvmlEventSetWait_v2(eventSet, data, timeoutMs);
  }

  private static native int nvmlDeviceGetCount_v2(long count);

  private static native int nvmlDeviceGetHandleByIndex_v2(int index, long device);

  private static native int nvmlDeviceGetUtilizationRates(long device, long utilization);

  private static native int nvmlDeviceGetEncoderUtilization(
      long device, long utilization, long samplingPeriodUs);

  private static native int nvmlDeviceGetDecoderUtilization(
      long device, long utilization, long samplingPeriodUs);

  private static native int nvmlDeviceGetMemoryInfo_v2(long device, long memory);

  private static native int nvmlDeviceGetTemperature(long device, int sensor, long celsius);

  private static native int nvmlDeviceGetPowerUsage(long device, long milliwatts);

  private static native int nvmlDeviceGetTotalEnergyConsumption(long device, long millijoules);

  private static native int nvmlDeviceGetClockInfo(long device, int clockType, long mhz);

  private static native int nvmlDeviceGetCurrentClocksEventReasons(long device, long reasons);

  private static native int nvmlDeviceGetPcieThroughput(long device, int counter, long kbps);

  private static native int nvmlDeviceGetPcieReplayCounter(long device, long count);

  private static native int nvmlDeviceGetTotalEccErrors(
      long device, int errorType, int counter, long count);

  private static native int nvmlDeviceGetRemappedRows(
      long device, long correctable, long uncorrectable, long pending, long failed);

  private static native int nvmlDeviceGetFieldValues(long device, int count, long values);

  private static native int nvmlDeviceGetComputeRunningProcesses_v3(
      long device, long count, long infos);

  private static native int nvmlGpmSampleGet(long device, long sample);

  private static native int nvmlGpmMetricsGet(long metricsGet);

  private static native int nvmlEventSetWait_v2(long eventSet, long data, int timeoutMs);
}
