package io.flightdeck.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Builds a deterministic workload that looks like a training cluster scraped every 15 s: 8 DGX-like
 * nodes with 8 GPUs each (dcgm-exporter series), their hosts (node_exporter series) and the
 * training job's per-rank metrics. The same seed gives the same series and values; only the
 * timestamps depend on {@code now}, so the data is recent and lands in every peer's head.
 */
final class WorkloadGenerator {

  static final long INTERVAL_MS = 15_000;

  private static final int NODES = 8;
  private static final int GPUS_PER_NODE = 8;
  private static final String GPU_MODEL = "NVIDIA A100-SXM4-80GB";
  private static final String[] PCI_BUSES = {"07", "0F", "47", "4E", "87", "90", "B7", "BD"};
  private static final String[] CPU_MODES = {
    "idle", "iowait", "irq", "nice", "softirq", "steal", "system", "user"
  };
  private static final String[] DISKS = {"nvme0n1", "nvme1n1", "nvme2n1", "nvme3n1"};
  private static final double UPTIME_SECONDS = 15 * 86_400;
  private static final double GIB = 1L << 30;

  private final long seed;
  private final int cpusPerNode;
  private final List<SeriesSpec> series = new ArrayList<>();
  private SplittableRandom random;

  /**
   * @param cpusPerNode logical CPUs per host; 128 (two 64-core sockets) gives about 10,500 series
   */
  WorkloadGenerator(long seed, int cpusPerNode) {
    this.seed = seed;
    this.cpusPerNode = cpusPerNode;
  }

  /** Series scraped for {@code duration}, the last scrape at the 15 s boundary before now. */
  Workload generate(Duration duration, Instant now) {
    series.clear();
    random = new SplittableRandom(seed);
    for (int node = 0; node < NODES; node++) {
      addGpus(node);
      addHost(node);
    }
    addTraining();
    int slices = Math.toIntExact(duration.toMillis() / INTERVAL_MS);
    long lastMs = Math.floorDiv(now.toEpochMilli(), INTERVAL_MS) * INTERVAL_MS;
    return new Workload(
        List.copyOf(series), lastMs - (slices - 1) * INTERVAL_MS, INTERVAL_MS, slices);
  }

  private void addGpus(int node) {
    for (int gpu = 0; gpu < GPUS_PER_NODE; gpu++) {
      Map<String, String> labels =
          Map.of(
              "gpu",
              Integer.toString(gpu),
              "UUID",
              uuid(),
              "pci_bus_id",
              "00000000:" + PCI_BUSES[gpu] + ":00.0",
              "device",
              "nvidia" + gpu,
              "modelName",
              GPU_MODEL,
              "Hostname",
              host(node),
              "instance",
              host(node) + ":9400",
              "job",
              "dcgm-exporter");
      gauge(
          "DCGM_FI_DEV_SM_CLOCK",
          labels,
          Gauge.between(210, 1410).plateaus(30).range(0, 1410).quantum(15));
      gauge("DCGM_FI_DEV_MEM_CLOCK", labels, Gauge.constant(1593));
      gauge(
          "DCGM_FI_DEV_GPU_TEMP",
          labels,
          Gauge.between(31, 66).noise(0.6).plateaus(2).inertia(0.3));
      gauge("DCGM_FI_DEV_MEMORY_TEMP", labels, Gauge.between(33, 58).noise(0.6).inertia(0.3));
      gauge(
          "DCGM_FI_DEV_POWER_USAGE",
          labels,
          Gauge.between(62, 355).noise(18).plateaus(10).range(50, 400).quantum(0.001));
      counter("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", labels, Counter.rate(62_000, 355_000), 4e11);
      gauge("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", labels, Gauge.constant(0));
      gauge(
          "DCGM_FI_DEV_GPU_UTIL", labels, Gauge.between(0, 98).noise(2).plateaus(1).range(0, 100));
      gauge("DCGM_FI_DEV_MEM_COPY_UTIL", labels, Gauge.between(0, 38).noise(4).range(0, 100));
      gauge("DCGM_FI_DEV_ENC_UTIL", labels, Gauge.constant(0));
      gauge("DCGM_FI_DEV_DEC_UTIL", labels, Gauge.constant(0));
      gauge("DCGM_FI_DEV_XID_ERRORS", labels, Gauge.constant(0));
      gauge("DCGM_FI_DEV_FB_FREE", labels, Gauge.constant(6_042).plateaus(400));
      gauge("DCGM_FI_DEV_FB_USED", labels, Gauge.constant(75_003).plateaus(400));
      counter("DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", labels, Counter.rate(0, 2.2e8), 1e14);
      gauge(
          "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
          labels,
          Gauge.between(0, 0.93).noise(0.02).range(0, 1).quantum(1e-6));
      gauge(
          "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE",
          labels,
          Gauge.between(0, 0.41).noise(0.03).range(0, 1).quantum(1e-6));
      gauge(
          "DCGM_FI_PROF_DRAM_ACTIVE",
          labels,
          Gauge.between(0, 0.52).noise(0.03).range(0, 1).quantum(1e-6));
      gauge("DCGM_FI_PROF_PCIE_TX_BYTES", labels, Gauge.between(2e6, 1.1e9).noise(1.5e8));
      gauge("DCGM_FI_PROF_PCIE_RX_BYTES", labels, Gauge.between(2.5e6, 1.4e9).noise(1.5e8));
    }
  }

  private void addHost(int node) {
    Map<String, String> host = Map.of("instance", host(node) + ":9100", "job", "node-exporter");
    for (int cpu = 0; cpu < cpusPerNode; cpu++) {
      for (String mode : CPU_MODES) {
        Map<String, String> labels = with(host, "cpu", Integer.toString(cpu), "mode", mode);
        Counter seconds = cpuSeconds(mode).quantum(0.01);
        counter("node_cpu_seconds_total", labels, seconds, UPTIME_SECONDS * seconds.idleRate());
      }
    }
    addMemory(host);
    addNetwork(host);
    addDisks(host);
    addFilesystems(host);
    gauge("node_load1", host, Gauge.between(3.1, 72).noise(2).quantum(0.01));
    gauge("node_load5", host, Gauge.between(3.1, 72).noise(0.5).inertia(0.2).quantum(0.01));
    gauge("node_load15", host, Gauge.between(3.1, 72).noise(0.2).inertia(0.07).quantum(0.01));
    gauge("node_procs_running", host, Gauge.between(3, 70).noise(4));
    gauge("node_boot_time_seconds", host, Gauge.constant(1.7e9 + random.nextInt(86_400)));
    counter("node_context_switches_total", host, Counter.rate(4e4, 2.4e5), 2e11);
    counter("node_intr_total", host, Counter.rate(6e4, 3.1e5), 3e11);
  }

  /** Fractions of a CPU per mode: dataloader workers keep CPUs busy, checkpoints wait on I/O. */
  private static Counter cpuSeconds(String mode) {
    return switch (mode) {
      case "idle" -> Counter.rate(0.9, 0.58);
      case "iowait" -> Counter.rate(0.04, 0.003);
      case "nice" -> Counter.rate(0.0005, 0.0005);
      case "softirq" -> Counter.rate(0.001, 0.004);
      case "system" -> Counter.rate(0.01, 0.06);
      case "user" -> Counter.rate(0.05, 0.35);
      default -> Counter.rate(0, 0); // irq and steal stay at zero on bare metal
    };
  }

  private void addMemory(Map<String, String> host) {
    double kib = 1024;
    gauge("node_memory_MemTotal_bytes", host, Gauge.constant(2015 * GIB).quantum(kib));
    gauge(
        "node_memory_MemFree_bytes",
        host,
        Gauge.between(820 * GIB, 790 * GIB).noise(5e8).plateaus(20 * GIB).quantum(kib));
    gauge(
        "node_memory_MemAvailable_bytes",
        host,
        Gauge.between(1550 * GIB, 1520 * GIB).noise(5e8).plateaus(20 * GIB).quantum(kib));
    gauge(
        "node_memory_Cached_bytes",
        host,
        Gauge.between(680 * GIB, 690 * GIB).noise(2e8).plateaus(10 * GIB).quantum(kib));
    gauge("node_memory_Buffers_bytes", host, Gauge.constant(2.1 * GIB).noise(1e6).quantum(kib));
    gauge(
        "node_memory_Active_bytes",
        host,
        Gauge.between(410 * GIB, 430 * GIB).noise(3e8).quantum(kib));
    gauge(
        "node_memory_Inactive_bytes",
        host,
        Gauge.between(520 * GIB, 515 * GIB).noise(3e8).quantum(kib));
    gauge(
        "node_memory_Dirty_bytes",
        host,
        Gauge.between(30 * GIB, 0.25 * GIB).noise(1e8).quantum(kib));
    gauge("node_memory_Shmem_bytes", host, Gauge.constant(64 * GIB).plateaus(GIB).quantum(kib));
    gauge("node_memory_Slab_bytes", host, Gauge.constant(12 * GIB).noise(2e7).quantum(kib));
    gauge("node_memory_SwapTotal_bytes", host, Gauge.constant(0));
  }

  private void addNetwork(Map<String, String> host) {
    netDevice(host, "lo", 5e5, 5e5, 1_000);
    netDevice(host, "eth0", 4e5, 2e6, 800);
    for (int ib = 0; ib < 8; ib++) {
      netDevice(host, "ib" + ib, 1e6, 1.1e10, 4_096);
    }
  }

  private void netDevice(
      Map<String, String> host, String device, double idleRate, double busyRate, int packetSize) {
    Map<String, String> labels = with(host, "device", device);
    double start = busyRate * UPTIME_SECONDS / 3;
    for (String direction : new String[] {"receive", "transmit"}) {
      counter(
          "node_network_" + direction + "_bytes_total",
          labels,
          Counter.rate(idleRate, busyRate),
          start);
      counter(
          "node_network_" + direction + "_packets_total",
          labels,
          Counter.rate(idleRate / packetSize, busyRate / packetSize),
          start / packetSize);
    }
  }

  /** Dataloaders read during training; checkpoints write bursts while GPUs wait. */
  private void addDisks(Map<String, String> host) {
    for (String disk : DISKS) {
      Map<String, String> labels = with(host, "device", disk);
      counter("node_disk_reads_completed_total", labels, Counter.rate(200, 1_500), 6e8);
      counter("node_disk_writes_completed_total", labels, Counter.rate(9_000, 40), 2e8);
      counter("node_disk_read_bytes_total", labels, Counter.rate(2e7, 1.5e8), 6e13);
      counter("node_disk_written_bytes_total", labels, Counter.rate(2.4e9, 2e6), 3e13);
      counter(
          "node_disk_io_time_seconds_total", labels, Counter.rate(0.98, 0.25).quantum(0.001), 4e5);
      counter(
          "node_disk_read_time_seconds_total", labels, Counter.rate(0.05, 0.4).quantum(0.001), 5e5);
      counter(
          "node_disk_write_time_seconds_total",
          labels,
          Counter.rate(1.9, 0.01).quantum(0.001),
          3e5);
    }
  }

  private void addFilesystems(Map<String, String> host) {
    String[][] mounts = {
      {"/dev/sda2", "/", "ext4"}, {"/dev/md0", "/raid", "ext4"}, {"tmpfs", "/run", "tmpfs"}
    };
    double[] sizes = {1.7e12, 1.4e13, 2e11};
    for (int i = 0; i < mounts.length; i++) {
      Map<String, String> labels =
          with(host, "device", mounts[i][0], "mountpoint", mounts[i][1], "fstype", mounts[i][2]);
      double size = ValueModel.quantize(sizes[i], 4096);
      gauge("node_filesystem_size_bytes", labels, Gauge.constant(size));
      gauge(
          "node_filesystem_free_bytes",
          labels,
          Gauge.constant(size * 0.41).plateaus(size * 0.01).quantum(4096));
      gauge(
          "node_filesystem_avail_bytes",
          labels,
          Gauge.constant(size * 0.36).plateaus(size * 0.01).quantum(4096));
    }
  }

  /**
   * Per-rank series of the training job. Step and learning rate are global, so every rank reports
   * the same values: their models share one seed.
   */
  private void addTraining() {
    long jobSeed = random.nextLong();
    for (int rank = 0; rank < NODES * GPUS_PER_NODE; rank++) {
      Map<String, String> labels =
          Map.of("job", "llm-pretrain", "rank", Integer.toString(rank), "exp_id", "exp-7b-0042");
      add("llm_train_loss", labels, new LossCurve(random.split(), 2.9));
      add(
          "llm_train_step",
          labels,
          Counter.rate(0, 3.2).model(new SplittableRandom(jobSeed), 41_000));
      add("llm_learning_rate", labels, WorkloadGenerator::learningRate);
      gauge("llm_train_samples_per_second", labels, Gauge.between(0, 412).noise(5).quantum(0.01));
    }
  }

  /** Cosine decay after warm-up, about 48 optimizer steps per scrape, logged as float32. */
  private static double learningRate(int slice) {
    double progress = Math.min(1, (41_000 + slice * 48.0) / 250_000);
    return (float) (3e-5 + 0.5 * (3e-4 - 3e-5) * (1 + Math.cos(Math.PI * progress)));
  }

  private void gauge(String name, Map<String, String> labels, Gauge shape) {
    add(name, labels, shape.model(random.split()));
  }

  private void counter(
      String name, Map<String, String> labels, Counter shape, double typicalStart) {
    double start =
        ValueModel.quantize(typicalStart * (0.8 + 0.4 * random.nextDouble()), shape.quantum());
    add(name, labels, shape.model(random.split(), start));
  }

  private void add(String name, Map<String, String> labels, ValueModel values) {
    TreeMap<String, String> sorted = new TreeMap<>(labels);
    sorted.put("__name__", name);
    series.add(new SeriesSpec(sorted, values));
  }

  private static Map<String, String> with(Map<String, String> base, String... pairs) {
    Map<String, String> labels = new TreeMap<>(base);
    for (int i = 0; i < pairs.length; i += 2) {
      labels.put(pairs[i], pairs[i + 1]);
    }
    return labels;
  }

  private static String host(int node) {
    return "dgx-" + node;
  }

  private String uuid() {
    return String.format(
        "GPU-%08x-%04x-%04x-%04x-%012x",
        random.nextInt(),
        random.nextInt(1 << 16),
        random.nextInt(1 << 16),
        random.nextInt(1 << 16),
        random.nextLong(1L << 48));
  }
}
