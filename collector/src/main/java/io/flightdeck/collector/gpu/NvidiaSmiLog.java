package io.flightdeck.collector.gpu;

import java.util.List;

/** What one {@code nvidia-smi -q -x} run says: driver version (null if absent) and each GPU. */
record NvidiaSmiLog(String driverVersion, List<GpuReading> gpus) {
  NvidiaSmiLog {
    gpus = List.copyOf(gpus);
  }
}
