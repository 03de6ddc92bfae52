package io.flightdeck.app;

import io.flightdeck.collector.gpu.GpuCollectorOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The {@code --collector.*} and {@code --path.procfs} flags the agent and the server share. */
final class NodeCollectorFlags {
  @Option(
      names = "--path.procfs",
      defaultValue = "/proc",
      description = "procfs mount point (default ${DEFAULT-VALUE}).")
  Path procRoot;

  @Option(
      names = "--collector.nvml.library",
      defaultValue = GpuCollectorOptions.DEFAULT_NVML_LIBRARY,
      description =
          "The NVML library, a path or a name for the dynamic linker (default ${DEFAULT-VALUE}).")
  String nvmlLibrary;

  @Option(
      names = "--collector.interval",
      defaultValue = "5s",
      description = "How often the node is collected, at least 1s (default ${DEFAULT-VALUE}).")
  String interval;

  /** {@code --collector.interval}, refused below one second. */
  Duration interval() {
    return NodeCollection.interval(interval);
  }

  /** The node's name, read through {@code --path.procfs}. */
  String hostname() throws IOException {
    return NodeCollection.hostname(procRoot);
  }
}
