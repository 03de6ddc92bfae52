package io.flightdeck.collector.gpu;

import java.nio.file.Path;

/**
 * Options of the GPU collector.
 *
 * @param nvmlLibrary the NVML shared library, a path or a name for the dynamic linker ({@code
 *     --collector.nvml.library}); {@link #DEFAULT_NVML_LIBRARY} by default
 * @param hostname the value of the {@code Hostname} label
 * @param procRoot the host's procfs, for process details
 */
public record GpuCollectorOptions(String nvmlLibrary, String hostname, Path procRoot) {
  public static final String DEFAULT_NVML_LIBRARY = JnaNvml.DEFAULT_LIBRARY;

  public static GpuCollectorOptions defaults(String hostname) {
    return new GpuCollectorOptions(DEFAULT_NVML_LIBRARY, hostname, Path.of("/proc"));
  }
}
