package io.flightdeck.demo;

import static io.flightdeck.demo.DemoScript.GPUS_PER_NODE;
import static io.flightdeck.demo.DemoScript.NODES;

import java.util.Random;

/**
 * Every value of the simulated cluster as a function of the seed and the simulated second, so that
 * the same seed gives the same data whatever the wall clock does. Noise comes from a {@link Random}
 * seeded per value (seed, series, second); the step counter and the counters (energy, CPU seconds,
 * bytes) are integrated once, second by second, when the model is built.
 *
 * <p>Counters advance by their rate times <em>real</em> seconds (each simulated second adds
 * rate/speed), so that {@code rate()} over the stored samples shows the simulated rate, such as a
 * saturated 10 GbE link at 1.25 GB/s, at any speed. Gauges keep their simulated values.
 */
final class ClusterModel {
  static final double GPU_MEMORY_TOTAL_MB = 81559;
  static final double NIC_BYTES_PER_SECOND = 1.25e9;
  static final int CPUS = 32;
  static final double HOST_MEMORY_BYTES = 2048.0 * 1024 * 1024 * 1024;
  private static final double RANK_MEMORY_MB = 52000;
  private static final double LEAK_PER_EPOCH_MB = 2800;
  private static final double SAMPLES_PER_RANK = 7.5;
  private static final double SATURATED_THROUGHPUT = 0.35;
  private static final int NETWORK_CYCLE_SECONDS = 300;
  private static final int SATURATED_SECONDS = 240;
  private static final int HOT_RAMP_SECONDS = 180;

  private static final int K_LOSS = 1;
  private static final int K_SAMPLES = 2;
  private static final int K_RANK_MEMORY = 3;
  private static final int K_UTIL = 4;
  private static final int K_POWER = 5;
  private static final int K_NET = 6;
  private static final int K_MEM_AVAILABLE = 7;
  private static final int K_PCIE = 8;

  private final long seed;
  private final double speed;
  private final int lastSecond;
  private final double[] progress;
  private final double[][] energyMj; // [node * 8 + gpu][second]
  private final double[][] cpuUser; // [node][second], summed over CPUs
  private final double[][] cpuSystem;
  private final double[][] cpuIowait;
  private final double[][] rxBytes; // [node * 2 + nic][second]
  private final double[][] txBytes;
  private final double[][] diskRead; // [node][second]
  private final double[][] diskWritten;
  private final int leakStartEpoch;

  ClusterModel(long seed, double speed, long durationSeconds) {
    this.seed = seed;
    this.speed = speed;
    this.lastSecond = (int) durationSeconds;
    int n = lastSecond + 1;
    progress = new double[n];
    for (int t = 1; t < n; t++) {
      int s = t - 1;
      double rate = training(s) && !hung(s) ? throughputFactor(s) / DemoScript.STEP_SECONDS : 0;
      progress[t] = progress[s] + rate;
    }
    leakStartEpoch = epoch((int) DemoScript.LEAK_START.toSeconds() - 1);
    energyMj = new double[NODES * GPUS_PER_NODE][n];
    cpuUser = new double[NODES][n];
    cpuSystem = new double[NODES][n];
    cpuIowait = new double[NODES][n];
    rxBytes = new double[NODES * 2][n];
    txBytes = new double[NODES * 2][n];
    diskRead = new double[NODES][n];
    diskWritten = new double[NODES][n];
    for (int t = 1; t < n; t++) {
      int s = t - 1;
      for (int node = 0; node < NODES; node++) {
        for (int gpu = 0; gpu < GPUS_PER_NODE; gpu++) {
          int i = node * GPUS_PER_NODE + gpu;
          energyMj[i][t] = energyMj[i][s] + powerWatts(node, gpu, s) * 1000 / speed;
        }
        double busy = training(s) ? (hung(s) ? 0.15 : 0.35) : 0.01;
        cpuUser[node][t] = cpuUser[node][s] + CPUS * busy / speed;
        cpuSystem[node][t] = cpuSystem[node][s] + CPUS * busy * 0.2 / speed;
        cpuIowait[node][t] = cpuIowait[node][s] + CPUS * busy * 0.05 / speed;
        for (int nic = 0; nic < 2; nic++) {
          int i = node * 2 + nic;
          rxBytes[i][t] = rxBytes[i][s] + receiveRate(node, nic, s) / speed;
          txBytes[i][t] = txBytes[i][s] + transmitRate(node, nic, s) / speed;
        }
        double reading = training(s) && !hung(s) ? 1.8e8 * throughputFactor(s) : 0;
        diskRead[node][t] = diskRead[node][s] + reading / speed;
        diskWritten[node][t] = diskWritten[node][s] + (training(s) ? 2e6 : 1e4) / speed;
      }
    }
  }

  /** The simulated second {@code t} held to what the model covers. */
  int clamp(double simSeconds) {
    return (int) Math.max(0, Math.min(lastSecond, Math.floor(simSeconds)));
  }

  // --- the job ------------------------------------------------------------------------------

  /** Whether the job's processes are alive: until the XID 79 kills rank 10. */
  boolean training(int t) {
    return t < DemoScript.XID_AT.toSeconds();
  }

  boolean hung(int t) {
    return within(t, DemoScript.HANG_START.toSeconds(), DemoScript.HANG_END.toSeconds());
  }

  /** Whether node {@code SATURATED_NODE}'s receive link is full at {@code t}. */
  boolean saturated(int t) {
    long start = DemoScript.NETWORK_START.toSeconds();
    return within(t, start, DemoScript.NETWORK_END.toSeconds())
        && (t - start) % NETWORK_CYCLE_SECONDS < SATURATED_SECONDS;
  }

  /** Throughput relative to normal: the all-reduce waits on the saturated link. */
  double throughputFactor(int t) {
    return saturated(t) ? SATURATED_THROUGHPUT : 1;
  }

  /**
   * The second whose values the training gauges show: a rank blocked in a collective stops updating
   * its gauges, so during the hang they keep the values of its first second.
   */
  int gaugeSecond(int t) {
    return hung(t) ? (int) DemoScript.HANG_START.toSeconds() : t;
  }

  int step(int t) {
    return (int) Math.floor(progress[t] + 1e-9);
  }

  int epoch(int t) {
    return step(t) / DemoScript.STEPS_PER_EPOCH;
  }

  /** Epoch as Hugging Face reports it: fractional. */
  double fractionalEpoch(int t) {
    return progress[t] / DemoScript.STEPS_PER_EPOCH;
  }

  double loss(int rank, int t) {
    if (within(t, DemoScript.NAN_START.toSeconds(), DemoScript.NAN_END.toSeconds())) {
      return Double.NaN;
    }
    int step = step(t);
    return 1.05 + 2.2 * Math.exp(-step / 500.0) + 0.02 * gauss(K_LOSS, rank, step);
  }

  double learningRate(int t) {
    int step = step(t);
    double peak = 3e-4;
    if (step < 100) {
      return peak * (step + 1) / 100;
    }
    double progressed = Math.min(1, (step - 100) / (double) (DemoScript.MAX_STEPS - 100));
    return 3e-5 + (peak - 3e-5) * 0.5 * (1 + Math.cos(Math.PI * progressed));
  }

  double samplesPerSecond(int rank, int t) {
    return SAMPLES_PER_RANK * throughputFactor(t) + 0.08 * gauss(K_SAMPLES, rank, t);
  }

  /** {@code torch.cuda.memory_allocated} of a rank in MB, with the per-epoch leak. */
  double rankMemoryMb(int rank, int t) {
    double leak = 0;
    if (within(t, DemoScript.LEAK_START.toSeconds(), DemoScript.LEAK_END.toSeconds())) {
      leak = LEAK_PER_EPOCH_MB * (epoch(t) - leakStartEpoch);
    }
    return Math.rint(RANK_MEMORY_MB + leak + 40 * gauss(K_RANK_MEMORY, rank, t / 60));
  }

  // --- GPUs ---------------------------------------------------------------------------------

  boolean lost(int node, int gpu, int t) {
    return node == DemoScript.LOST_NODE
        && gpu == DemoScript.LOST_GPU
        && t >= DemoScript.XID_AT.toSeconds();
  }

  private boolean isHungGpu(int node, int gpu) {
    return node == DemoScript.HUNG_NODE && gpu == DemoScript.HUNG_GPU;
  }

  /** SM utilisation in percent. Waiting ranks spin in NCCL at 100%; the hung GPU does nothing. */
  int utilization(int node, int gpu, int t) {
    if (!training(t)) {
      return 0;
    }
    if (hung(t)) {
      return isHungGpu(node, gpu) ? 0 : 100;
    }
    double base = saturated(t) ? 45 : 93;
    return (int)
        Math.round(Math.max(0, Math.min(100, base + 2.5 * gauss(K_UTIL, gpu(node, gpu), t))));
  }

  double powerWatts(int node, int gpu, int t) {
    if (!training(t)) {
      return 72;
    }
    if (hung(t)) {
      return isHungGpu(node, gpu) ? 96 : 285;
    }
    double base = saturated(t) ? 380 : 615;
    return base + 12 * gauss(K_POWER, gpu(node, gpu), t);
  }

  int temperature(int node, int gpu, int t) {
    double temp = 30 + powerWatts(node, gpu, t) * 0.065;
    return (int) Math.round(temp + hotExtra(node, gpu, t));
  }

  private double hotExtra(int node, int gpu, int t) {
    if (node != DemoScript.HOT_NODE || gpu != DemoScript.HOT_GPU) {
      return 0;
    }
    long start = DemoScript.HOT_START.toSeconds();
    long end = DemoScript.HOT_END.toSeconds();
    if (!within(t, start, end)) {
      return 0;
    }
    double ramp =
        Math.min(
            1,
            Math.min(
                (t - start) / (double) HOT_RAMP_SECONDS, (end - t) / (double) HOT_RAMP_SECONDS));
    return 18 * ramp;
  }

  /** NVML's clock event reasons: 0x1 GPU idle, 0x40 hardware thermal slowdown. */
  long clockEventReasons(int node, int gpu, int t) {
    long reasons = utilization(node, gpu, t) == 0 ? 0x1 : 0;
    if (temperature(node, gpu, t) >= 85) {
      reasons |= 0x40;
    }
    return reasons;
  }

  int smClockMhz(int node, int gpu, int t) {
    if (!training(t) || (hung(t) && isHungGpu(node, gpu))) {
      return 345;
    }
    return (clockEventReasons(node, gpu, t) & 0x40) != 0 ? 1410 : 1980;
  }

  /** Framebuffer used in MiB: the rank's tensors plus the CUDA context and allocator cache. */
  double framebufferUsedMib(int node, int gpu, int t) {
    if (!training(t)) {
      return 4;
    }
    return rankMemoryMb(DemoScript.rank(node, gpu), gaugeSecond(t)) + 1800;
  }

  double energyMillijoules(int node, int gpu, int t) {
    return Math.floor(energyMj[gpu(node, gpu)][t]);
  }

  int pcieKiBps(int node, int gpu, int t, boolean receive) {
    if (!training(t) || hung(t)) {
      return 50;
    }
    double base = receive ? 2.4e6 : 1.1e6;
    return (int) Math.max(0, base * throughputFactor(t) + 1e5 * gauss(K_PCIE, gpu(node, gpu), t));
  }

  /** NVLink data moved since boot, in KiB: proportional to the steps made. */
  double nvlinkKiB(int t) {
    return Math.floor(progress[t] * 3.5e6);
  }

  // --- hosts --------------------------------------------------------------------------------

  double cpuSeconds(int node, String mode, int t) {
    return switch (mode) {
      case "user" -> cpuUser[node][t];
      case "system" -> cpuSystem[node][t];
      case "iowait" -> cpuIowait[node][t];
      default ->
          Math.max(
              0, CPUS * t / speed - cpuUser[node][t] - cpuSystem[node][t] - cpuIowait[node][t]);
    };
  }

  double memoryAvailableBytes(int node, int t) {
    double used = training(t) ? 0.38 : 0.06;
    return HOST_MEMORY_BYTES * (1 - used) + 2e8 * gauss(K_MEM_AVAILABLE, node, t / 30);
  }

  /** Receive rate in bytes/s of NIC {@code nic} (0 = eth0, the fabric; 1 = eth1, management). */
  double receiveRate(int node, int nic, int t) {
    if (nic == 1) {
      return 2.0e6 + 2e5 * gauss(K_NET, node * 4 + 1, t);
    }
    if (!training(t)) {
      return 2e4;
    }
    if (hung(t)) {
      return 1e5;
    }
    if (node == DemoScript.SATURATED_NODE && saturated(t)) {
      return NIC_BYTES_PER_SECOND * 0.99;
    }
    return 5.5e8 * throughputFactor(t) + 2.5e7 * gauss(K_NET, node * 4, t);
  }

  double transmitRate(int node, int nic, int t) {
    if (nic == 1) {
      return 1.2e6;
    }
    return receiveRate(node, 0, t) * 0.96;
  }

  double receivedBytes(int node, int nic, int t) {
    return Math.floor(rxBytes[node * 2 + nic][t]);
  }

  double transmittedBytes(int node, int nic, int t) {
    return Math.floor(txBytes[node * 2 + nic][t]);
  }

  double diskReadBytes(int node, int t) {
    return Math.floor(diskRead[node][t]);
  }

  double diskWrittenBytes(int node, int t) {
    return Math.floor(diskWritten[node][t]);
  }

  // --- noise --------------------------------------------------------------------------------

  private static int gpu(int node, int gpu) {
    return node * GPUS_PER_NODE + gpu;
  }

  private static boolean within(long t, long start, long end) {
    return t >= start && t < end;
  }

  /** A standard normal value fixed by the seed, the kind of series, its index and the time. */
  private double gauss(int kind, int index, long time) {
    long mixed = seed;
    mixed = mixed * 0x9E3779B97F4A7C15L + kind;
    mixed = mixed * 0x9E3779B97F4A7C15L + index;
    mixed = mixed * 0x9E3779B97F4A7C15L + time;
    return new Random(mixed).nextGaussian();
  }
}
