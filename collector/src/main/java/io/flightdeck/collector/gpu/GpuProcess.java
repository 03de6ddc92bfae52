package io.flightdeck.collector.gpu;

import java.util.OptionalLong;

/** A process holding a GPU context: host pid and GPU memory in bytes when the driver tells. */
record GpuProcess(int pid, OptionalLong usedMemoryBytes) {}
