package io.flightdeck.app;

import io.flightdeck.collector.gpu.GpuCollector;
import io.flightdeck.collector.gpu.GpuCollectorOptions;
import io.flightdeck.collector.gpu.NvidiaSmiCollector;
import io.flightdeck.collector.host.FilesystemCollector;
import io.flightdeck.collector.host.HostCollector;
import io.flightdeck.collector.host.MetricFamily;
import io.flightdeck.collector.host.ProcessCollector;
import io.flightdeck.model.Clock;
import io.flightdeck.model.DurationFormat;
import io.flightdeck.model.Labels;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.SampleRejectedException;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one node reports, for the agent and for the server's in-process collection alike: host
 * metrics (with filesystems), GPU metrics when NVML loads, and the host-side figures of the
 * processes on the GPUs. Not thread-safe: one collecting thread.
 */
final class NodeCollection implements AutoCloseable {
  /** The {@code job} label of collected samples, as a scrape of the agent would set it. */
  static final String JOB = "flightdeck-agent";

  /** The GPU family whose {@code pid} labels name the processes followed on the host side. */
  private static final String GPU_PROCESS_FAMILY = "flightdeck_gpu_process_memory_bytes";

  private static final Logger LOG = LoggerFactory.getLogger(NodeCollection.class);

  private final HostCollector host;
  private final FilesystemCollector filesystems;
  private final ProcessCollector processes;
  private GpuCollector gpu;
  private NvidiaSmiCollector smi;

  /**
   * Loads NVML from {@code nvmlLibrary}; without it, GPUs are read from {@code nvidia-smi} when the
   * tool is on the PATH, and otherwise one line says so and only host metrics are collected.
   */
  NodeCollection(Path procRoot, String nvmlLibrary, String hostname, Clock clock) {
    this(procRoot, nvmlLibrary, hostname, clock, System.getenv("PATH"));
  }

  /** As above, looking for {@code nvidia-smi} in {@code searchPath} (a $PATH value). */
  NodeCollection(
      Path procRoot, String nvmlLibrary, String hostname, Clock clock, String searchPath) {
    host = HostCollector.linux(procRoot, clock);
    filesystems = FilesystemCollector.linux(procRoot);
    processes = new ProcessCollector(procRoot);
    gpu = GpuCollector.create(new GpuCollectorOptions(nvmlLibrary, hostname, procRoot));
    gpu.start();
    String unavailable = gpu.collect().failures().get("nvml");
    if (unavailable != null) {
      gpu.close();
      gpu = null;
      smi =
          NvidiaSmiCollector.onPath(searchPath)
              .map(tool -> new NvidiaSmiCollector(tool, hostname, procRoot))
              .orElse(null);
      if (smi == null) {
        LOG.warn("{} (no GPU metrics; host metrics go on)", unavailable);
      } else {
        LOG.warn("{}; reading GPUs from {} -q -x instead", unavailable, smi.binary());
      }
    }
  }

  /** Every family of one collection; a failing part is logged and left out. */
  List<MetricFamily> collect() {
    List<MetricFamily> families = new ArrayList<>(host.collect().families());
    try {
      families.addAll(filesystems.collect());
    } catch (IOException e) {
      LOG.debug("filesystem collector failed: {}", e.toString());
    }
    GpuCollector.Scrape gpus = gpu != null ? gpu.collect() : smi != null ? smi.collect() : null;
    if (gpus != null) {
      if (smi != null && !gpus.failures().isEmpty()) {
        LOG.debug("nvidia-smi failed: {}", gpus.failures());
      }
      families.addAll(gpus.families());
      families.addAll(processes.collect(gpuPids(gpus.families())));
    }
    return families;
  }

  private static Set<Integer> gpuPids(List<MetricFamily> gpuFamilies) {
    Set<Integer> pids = new TreeSet<>();
    for (MetricFamily family : gpuFamilies) {
      if (family.name().equals(GPU_PROCESS_FAMILY)) {
        for (MetricFamily.Sample sample : family.samples()) {
          String pid = sample.labels().get("pid");
          if (pid != null) {
            pids.add(Integer.parseInt(pid));
          }
        }
      }
    }
    return pids;
  }

  /**
   * Appends every sample of {@code families} at {@code timestamp} with the {@code job} and {@code
   * instance} labels a scrape would add; returns the series appended. Does not commit.
   */
  static Set<Labels> append(
      Appender appender, List<MetricFamily> families, long timestamp, String instance) {
    Set<Labels> series = new HashSet<>();
    for (MetricFamily family : families) {
      for (MetricFamily.Sample sample : family.samples()) {
        Labels labels =
            sample.labels().toBuilder()
                .set(Labels.METRIC_NAME, family.name())
                .set("job", JOB)
                .set("instance", instance)
                .build();
        try {
          appender.append(0, labels, timestamp, sample.value());
          series.add(labels);
        } catch (SampleRejectedException e) {
          // One refused sample (a limit, a clock step back) must not cost the whole collection.
          LOG.debug("sample of {} refused: {}", labels, e.getMessage());
        }
      }
    }
    return series;
  }

  /** The value of {@code --collector.interval}, refused below one second. */
  static Duration interval(String flag) {
    Duration every = DurationFormat.parse(flag);
    if (every.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException(
          "--collector.interval=" + flag + " is below the minimum of 1s");
    }
    return every;
  }

  /** The kernel's host name, as node_exporter reports it; the resolver's as a fallback. */
  static String hostname(Path procRoot) throws IOException {
    Path kernel = procRoot.resolve("sys/kernel/hostname");
    if (Files.isReadable(kernel)) {
      String name = Files.readString(kernel).strip();
      if (!name.isEmpty()) {
        return name;
      }
    }
    return InetAddress.getLocalHost().getHostName();
  }

  @Override
  public void close() {
    if (gpu != null) {
      gpu.close();
      gpu = null;
    }
  }
}
