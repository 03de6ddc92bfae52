package io.flightdeck.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The run the cockpit benchmark opens: {@value #RUN} on 8 nodes x 8 GPUs, every series scraped
 * every 15 s, ending now. Names and labels are those the run page queries: dcgm-exporter fields
 * ({@code gpu}, {@code UUID}, {@code Hostname}, {@code instance}), node_exporter's CPU, memory,
 * disk and NIC counters, and one trainer per GPU ({@code run}, {@code Hostname}, {@code
 * local_rank}) reporting loss, step, learning rate and samples per second. The server attributes
 * each rank to the GPU of its host whose index is its {@code local_rank}, so the run has 64 GPUs.
 * Shapes come from the storage benchmark's models (plateaus, noise, a checkpoint every 30 minutes);
 * the same seed gives the same values.
 */
final class CockpitWorkload {

  static final String RUN = "bench-run";

  private static final int NODES = 8;
  private static final int GPUS_PER_NODE = 8;
  private static final int CPUS_PER_NODE = 32;
  private static final String[] CPU_MODES = {"idle", "iowait", "system", "user"};
  private static final double UPTIME_SECONDS = 15 * 86_400;
  private static final double GIB = 1L << 30;

  private final long seed;
  private final List<SeriesSpec> series = new ArrayList<>();
  private SplittableRandom random;

  CockpitWorkload(long seed) {
    this.seed = seed;
  }

  /** Every series over {@code duration}, the last scrape at the 15 s boundary before now. */
  Workload generate(Duration duration, Instant now) {
    series.clear();
    random = new SplittableRandom(seed);
    long jobSeed = random.nextLong();
    for (int node = 0; node < NODES; node++) {
      for (int gpu = 0; gpu < GPUS_PER_NODE; gpu++) {
        addGpu(node, gpu);
        addRank(node, gpu, jobSeed);
      }
      addHost(node);
    }
    long interval = WorkloadGenerator.INTERVAL_MS;
    int slices = Math.toIntExact(duration.toMillis() / interval);
    long lastMs = Math.floorDiv(now.toEpochMilli(), interval) * interval;
    return new Workload(List.copyOf(series), lastMs - (slices - 1) * interval, interval, slices);
  }

  private void addGpu(int node, int gpu) {
    Map<String, String> labels =
        Map.of(
            "gpu",
            Integer.toString(gpu),
            "UUID",
            uuid(),
            "device",
            "nvidia" + gpu,
            "modelName",
            "NVIDIA H100 80GB HBM3",
            "Hostname",
            host(node),
            "instance",
            host(node) + ":9400",
            "job",
            "dcgm-exporter");
    gauge("DCGM_FI_DEV_GPU_UTIL", labels, Gauge.between(0, 97).noise(2).plateaus(1).range(0, 100));
    gauge("DCGM_FI_DEV_FB_USED", labels, Gauge.between(2_000, 71_000).plateaus(600));
    gauge("DCGM_FI_DEV_FB_FREE", labels, Gauge.between(79_000, 10_000).plateaus(600));
    gauge(
        "DCGM_FI_DEV_GPU_TEMP", labels, Gauge.between(33, 68).noise(0.6).plateaus(2).inertia(0.3));
    gauge(
        "DCGM_FI_DEV_POWER_USAGE",
        labels,
        Gauge.between(70, 640).noise(20).plateaus(12).range(60, 700).quantum(0.001));
    gauge(
        "DCGM_FI_DEV_SM_CLOCK",
        labels,
        Gauge.between(345, 1980).plateaus(30).range(0, 1980).quantum(15));
    gauge(
        "DCGM_FI_PROF_SM_ACTIVE",
        labels,
        Gauge.between(0, 0.91).noise(0.02).range(0, 1).quantum(1e-6));
    gauge("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", labels, Gauge.constant(0));
    gauge("DCGM_FI_DEV_XID_ERRORS", labels, Gauge.constant(0));
  }

  /** The trainer process driving one GPU; step and learning rate are the same on every rank. */
  private void addRank(int node, int localRank, long jobSeed) {
    Map<String, String> labels =
        Map.of(
            "run",
            RUN,
            "Hostname",
            host(node),
            "local_rank",
            Integer.toString(localRank),
            "instance",
            host(node) + ":" + (8000 + localRank),
            "job",
            "trainer");
    add("train_loss", labels, new LossCurve(random.split(), 3.1));
    add("llm_train_step", labels, Counter.rate(0, 1.6).model(new SplittableRandom(jobSeed), 0));
    add("llm_learning_rate", labels, CockpitWorkload::learningRate);
    gauge("training_samples_per_second", labels, Gauge.between(0, 52).noise(1.5).quantum(0.01));
  }

  /** Warm-up over the first hour, then cosine decay, logged as float32. */
  private static double learningRate(int slice) {
    double warmup = 240;
    if (slice < warmup) {
      return (float) (3e-4 * (slice + 1) / warmup);
    }
    double progress = Math.min(1, (slice - warmup) / 6_000);
    return (float) (3e-5 + 0.5 * (3e-4 - 3e-5) * (1 + Math.cos(Math.PI * progress)));
  }

  private void addHost(int node) {
    Map<String, String> host = Map.of("instance", host(node) + ":9100", "job", "node-exporter");
    for (int cpu = 0; cpu < CPUS_PER_NODE; cpu++) {
      for (String mode : CPU_MODES) {
        Counter seconds =
            switch (mode) {
              case "idle" -> Counter.rate(0.9, 0.58);
              case "iowait" -> Counter.rate(0.04, 0.003);
              case "system" -> Counter.rate(0.01, 0.06);
              default -> Counter.rate(0.05, 0.35);
            };
        counter(
            "node_cpu_seconds_total",
            with(host, "cpu", Integer.toString(cpu), "mode", mode),
            seconds.quantum(0.01),
            UPTIME_SECONDS * seconds.idleRate());
      }
    }
    gauge("node_memory_MemTotal_bytes", host, Gauge.constant(2015 * GIB).quantum(1024));
    gauge(
        "node_memory_MemAvailable_bytes",
        host,
        Gauge.between(1550 * GIB, 1420 * GIB).noise(5e8).plateaus(20 * GIB).quantum(1024));
    for (int disk = 0; disk < 2; disk++) {
      Map<String, String> labels = with(host, "device", "nvme" + disk + "n1");
      counter("node_disk_read_bytes_total", labels, Counter.rate(2e7, 1.5e8), 6e13);
      counter("node_disk_written_bytes_total", labels, Counter.rate(2.4e9, 2e6), 3e13);
    }
    netDevice(host, "lo", 5e5, 5e5);
    netDevice(host, "eth0", 4e5, 2e6);
    for (int ib = 0; ib < 8; ib++) {
      netDevice(host, "ib" + ib, 1e6, 1.1e10);
    }
  }

  private void netDevice(Map<String, String> host, String device, double idle, double busy) {
    Map<String, String> labels = with(host, "device", device);
    for (String direction : new String[] {"receive", "transmit"}) {
      counter(
          "node_network_" + direction + "_bytes_total",
          labels,
          Counter.rate(idle, busy),
          busy * UPTIME_SECONDS / 3);
    }
  }

  private void gauge(String name, Map<String, String> labels, Gauge shape) {
    add(name, labels, shape.model(random.split()));
  }

  private void counter(String name, Map<String, String> labels, Counter shape, double start) {
    double first = ValueModel.quantize(start * (0.8 + 0.4 * random.nextDouble()), shape.quantum());
    add(name, labels, shape.model(random.split(), first));
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
