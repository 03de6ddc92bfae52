package io.flightdeck.collector.gpu;

/**
 * {@link NvmlCollectionCalls} through JNA's generic call path, each symbol looked up at its first
 * call: works with any driver (a missing symbol fails its own call only) and any number of loaded
 * libraries.
 */
final class LookedUpNvmlCollectionCalls implements NvmlCollectionCalls {
  private final NvmlSymbols symbols;

  LookedUpNvmlCollectionCalls(NvmlSymbols symbols) {
    this.symbols = symbols;
  }

  @Override
  public int deviceCount(long count) throws NvmlException {
    return symbols.invoke("nvmlDeviceGetCount_v2", count);
  }

  @Override
  public int deviceHandleByIndex(int index, long device) throws NvmlException {
    return symbols.invoke("nvmlDeviceGetHandleByIndex_v2", index, device);
  }

  @Override
  public int utilizationRates(long device, long utilization) throws NvmlException {
    return symbols.invoke("nvmlDeviceGetUtilizationRates", device, utilization);
  }

  @Override
  public int encoderUtilization(long device, long utilization, long samplingPeriodUs)
      throws NvmlException {
    return symbols.invoke("nvmlDeviceGetEncoderUtilization", device, utilization, samplingPeriodUs);
  }

  @Override
  public int decoderUtilization(long device, long utilization, long samplingPeriodUs)
      throws NvmlException {
    return symbols.invoke("nvmlDeviceGetDecoderUtilization", device, utilization, samplingPeriodUs);
  }

  @Override
  public int memoryInfoV2(long device, long memory) throws NvmlException {
    return symbols.invoke("nvmlDeviceGetMemoryInfo_v2", device, memory);
  }

  @Override
  public int temperature(long device, int sensor, long celsius) throws NvmlException {
    return symbols.invoke("nvmlDeviceGetTemperature", device, sensor, celsius);
  }

  @Override
  public int powerUsage(long device, long milliwatts) throws NvmlException {
    return symbols.invoke("nvmlDeviceGetPowerUsage", device, milliwatts);
  }

  @Override
  public int totalEnergyConsumption(long device, long millijoules) throws NvmlException {
    return symbols.invoke("nvmlDeviceGetTotalEnergyConsumption", device, millijoules);
  }

  @Override
  public int clockInfo(long device, int clockType, long mhz) throws NvmlException {
    return symbols.invoke("nvmlDeviceGetClockInfo", device, clockType, mhz);
  }

  @Override
  public int clocksEventReasons(long device, long reasons) throws NvmlException {
    return symbols.invoke("nvmlDeviceGetCurrentClocksEventReasons", device, reasons);
  }

  @Override
  public int pcieThroughput(long device, int counter, long kbps) throws NvmlException {
    return symbols.invoke("nvmlDeviceGetPcieThroughput", device, counter, kbps);
  }

  @Override
  public int pcieReplayCounter(long device, long count) throws NvmlException {
    return symbols.invoke("nvmlDeviceGetPcieReplayCounter", device, count);
  }

  @Override
  public int totalEccErrors(long device, int errorType, int counter, long count)
      throws NvmlException {
    return symbols.invoke("nvmlDeviceGetTotalEccErrors", device, errorType, counter, count);
  }

  @Override
  public int remappedRows(
      long device, long correctable, long uncorrectable, long pending, long failed)
      throws NvmlException {
    return symbols.invoke(
        "nvmlDeviceGetRemappedRows", device, correctable, uncorrectable, pending, failed);
  }

  @Override
  public int fieldValues(long device, int count, long values) throws NvmlException {
    return symbols.invoke("nvmlDeviceGetFieldValues", device, count, values);
  }

  @Override
  public int computeRunningProcesses(long device, long count, long infos) throws NvmlException {
    return symbols.invoke("nvmlDeviceGetComputeRunningProcesses_v3", device, count, infos);
  }

  @Override
  public int gpmSampleGet(long device, long sample) throws NvmlException {
    return symbols.invoke("nvmlGpmSampleGet", device, sample);
  }

  @Override
  public int gpmMetricsGet(long metricsGet) throws NvmlException {
    return symbols.invoke("nvmlGpmMetricsGet", metricsGet);
  }

  @Override
  public int eventSetWait(long eventSet, long data, int timeoutMs) throws NvmlException {
    return symbols.invoke("nvmlEventSetWait_v2", eventSet, data, timeoutMs);
  }
}
