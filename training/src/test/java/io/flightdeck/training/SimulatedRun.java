package io.flightdeck.training;

import io.flightdeck.model.Labels;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.storage.Appender;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A distributed training run written into a {@link TrainingStore} sample by sample, as scraped from
 * prometheus_client ranks, dcgm-exporter and node_exporter: per rank step, loss, learning rate,
 * samples/s, epoch and {@code gpu_memory_used_mb}; per GPU utilisation, power, SM clock, memory and
 * temperature; per host CPU seconds, memory and network counters. Every value carries seeded noise.
 * A healthy run by default; {@link Faults} changes what an incident changes.
 */
final class SimulatedRun {
  /** What an incident changes; each defaults to the healthy value it is given. */
  static class Faults {
    /** Step rate factor at second {@code s} (0 stalls the job). */
    double pace(long s) {
      return 1;
    }

    double loss(int rank, long s, double healthy) {
      return healthy;
    }

    /** The step a rank reports. */
    double step(int rank, long s, long healthy) {
      return healthy;
    }

    double learningRate(long step, double healthy) {
      return healthy;
    }

    double util(int node, int gpu, long s, double healthy) {
      return healthy;
    }

    double power(int node, int gpu, long s, double healthy) {
      return healthy;
    }

    double clock(int node, int gpu, long s, double healthy) {
      return healthy;
    }

    /** Extra GPU memory (MiB) of a rank at second {@code s} and epoch {@code epoch}. */
    double extraMemory(int rank, long s, long epoch) {
      return 0;
    }

    /** Share of host CPU time busy. */
    double cpuBusy(int node, long s, double healthy) {
      return healthy;
    }

    double receiveRate(int node, long s, double healthy) {
      return healthy;
    }

    /**
     * Whether a disturbance happens at second {@code s}: {@code rank}, {@code gpu} or {@code host}
     * (that scrape fails), {@code cpu_reset} (the host's counters restart from 0), {@code stale}
     * (every series written gets a staleness marker right after).
     */
    boolean disturbed(String what, long s) {
      return false;
    }

    /** The step a restart resumes from, or -1: the run restarts at {@code s}. */
    long restartTo(long s) {
      return -1;
    }
  }

  static final double STEPS_PER_SECOND = 0.5;
  static final long STEPS_PER_EPOCH = 600;
  static final long MAX_STEPS = 20_000;
  static final int CPUS = 4;

  final String run;
  final int nodes;
  final int gpus;
  final long every;
  final long seconds;
  final long seed;
  final Faults faults;

  SimulatedRun(
      String run, int nodes, int gpus, long every, long seconds, long seed, Faults faults) {
    this.run = run;
    this.nodes = nodes;
    this.gpus = gpus;
    this.every = every;
    this.seconds = seconds;
    this.seed = seed;
    this.faults = faults;
  }

  /** Each run has hosts of its own, so runs in one store do not read each other's GPUs. */
  String host(int node) {
    return run + "-node-" + node;
  }

  double healthyLoss(long step) {
    return 1.0 + 2.0 * Math.exp(-step / 2000.0);
  }

  double healthyLearningRate(long step) {
    if (step < 200) {
      return 3e-4 * (step + 1) / 200;
    }
    double done = Math.min(1, (step - 200) / (double) (MAX_STEPS - 200));
    return 3e-5 + (3e-4 - 3e-5) * 0.5 * (1 + Math.cos(Math.PI * done));
  }

  void write(TrainingStore store) {
    Random random = new Random(seed);
    Appender app = store.tsdb.appender();
    Map<Labels, Long> refs = new HashMap<>();
    double progress = 0;
    double[] cpu = new double[nodes * CPUS * 4];
    double[] rx = new double[nodes];
    long[] resetCpuAt = new long[nodes];
    java.util.Arrays.fill(resetCpuAt, Long.MAX_VALUE);
    List<Labels> live = new ArrayList<>();
    for (long s = 0; s <= seconds; s += every) {
      long restart = faults.restartTo(s);
      if (restart >= 0) {
        progress = restart;
      }
      long step = (long) Math.floor(progress);
      long t = TrainingStore.T0 + s * 1000;
      for (int node = 0; node < nodes; node++) {
        String host = host(node);
        for (int g = 0; g < gpus; g++) {
          int rank = node * gpus + g;
          String[] id = {
            "run",
            run,
            "job",
            run,
            "instance",
            host + ":80" + (80 + g),
            "Hostname",
            host,
            "rank",
            "" + rank,
            "local_rank",
            "" + g
          };
          if (!faults.disturbed("rank", s)) {
            put(app, refs, live, labels(id, "llm_train_step"), t, faults.step(rank, s, step));
            double loss = healthyLoss(step) + 0.02 * random.nextGaussian();
            put(app, refs, live, labels(id, "llm_train_loss"), t, faults.loss(rank, s, loss));
            double lr = faults.learningRate(step, healthyLearningRate(step));
            put(app, refs, live, labels(id, "llm_train_learning_rate"), t, lr);
            double sps = 7.5 * Math.min(1, faults.pace(s)) + 0.1 * random.nextGaussian();
            put(app, refs, live, labels(id, "llm_train_samples_per_second"), t, sps);
            put(app, refs, live, labels(id, "llm_train_epoch"), t, progress / STEPS_PER_EPOCH);
            put(app, refs, live, labels(id, "llm_train_max_steps"), t, MAX_STEPS);
            double memory =
                40_000
                    + faults.extraMemory(rank, s, step / STEPS_PER_EPOCH)
                    + 30 * random.nextGaussian();
            put(
                app,
                refs,
                live,
                labels(id, "gpu_memory_used_mb", "device", "cuda:" + g),
                t,
                Math.rint(memory));
            put(
                app,
                refs,
                live,
                labels(id, "gpu_memory_total_mb", "device", "cuda:" + g),
                t,
                81_559);
          }
          String[] gpuId = {
            "job",
            "dcgm",
            "instance",
            host + ":9400",
            "Hostname",
            host,
            "gpu",
            "" + g,
            "UUID",
            "GPU-" + host + "-" + g
          };
          if (!faults.disturbed("gpu", s)) {
            double util = Math.min(100, 93 + 2.5 * random.nextGaussian());
            put(
                app,
                refs,
                live,
                labels(gpuId, "DCGM_FI_DEV_GPU_UTIL"),
                t,
                Math.round(faults.util(node, g, s, util)));
            double power = 600 + 12 * random.nextGaussian();
            put(
                app,
                refs,
                live,
                labels(gpuId, "DCGM_FI_DEV_POWER_USAGE"),
                t,
                faults.power(node, g, s, power));
            put(
                app,
                refs,
                live,
                labels(gpuId, "DCGM_FI_DEV_SM_CLOCK"),
                t,
                faults.clock(node, g, s, 1980));
            double fb =
                41_800
                    + faults.extraMemory(rank, s, step / STEPS_PER_EPOCH)
                    + 30 * random.nextGaussian();
            put(app, refs, live, labels(gpuId, "DCGM_FI_DEV_FB_USED"), t, Math.rint(fb));
            put(app, refs, live, labels(gpuId, "DCGM_FI_DEV_FB_FREE"), t, Math.rint(81_559 - fb));
            put(app, refs, live, labels(gpuId, "DCGM_FI_DEV_GPU_TEMP"), t, 65);
            put(app, refs, live, labels(gpuId, "DCGM_FI_DEV_XID_ERRORS"), t, 0);
          }
        }
        String[] hostId = {"job", "node", "instance", host + ":9100"};
        if (!faults.disturbed("host", s)) {
          double busy = faults.cpuBusy(node, s, 0.35 + 0.02 * random.nextGaussian());
          double[] shares = {busy * 0.8, busy * 0.15, busy * 0.05, 1 - busy};
          String[] modes = {"user", "system", "iowait", "idle"};
          boolean reset = faults.disturbed("cpu_reset", s);
          for (int c = 0; c < CPUS; c++) {
            for (int m = 0; m < 4; m++) {
              int k = (node * CPUS + c) * 4 + m;
              cpu[k] = reset ? 0 : cpu[k] + every * shares[m];
              put(
                  app,
                  refs,
                  live,
                  labels(hostId, "node_cpu_seconds_total", "cpu", "" + c, "mode", modes[m]),
                  t,
                  cpu[k]);
            }
          }
          double rate = faults.receiveRate(node, s, 5e8 + 2e7 * random.nextGaussian());
          rx[node] = reset ? 0 : rx[node] + every * rate;
          put(
              app,
              refs,
              live,
              labels(hostId, "node_network_receive_bytes_total", "device", "eth0"),
              t,
              rx[node]);
          put(app, refs, live, labels(hostId, "node_memory_MemTotal_bytes"), t, 5.0e11);
          put(
              app,
              refs,
              live,
              labels(hostId, "node_memory_MemAvailable_bytes"),
              t,
              3.0e11 + 1e8 * random.nextGaussian());
        }
      }
      if (faults.disturbed("stale", s)) {
        for (Labels labels : live) {
          app.append(refs.getOrDefault(labels, 0L), labels, t + 1, StaleMarker.VALUE);
        }
      }
      live.clear();
      progress += STEPS_PER_SECOND * Math.max(0, faults.pace(s)) * every;
    }
    app.commit();
  }

  private static void put(
      Appender app, Map<Labels, Long> refs, List<Labels> live, Labels labels, long t, double v) {
    long ref = app.append(refs.getOrDefault(labels, 0L), labels, t, v);
    refs.put(labels, ref);
    live.add(labels);
  }

  private static Labels labels(String[] id, String name, String... more) {
    String[] all = TrainingScenario.concat(TrainingScenario.concat(id, "__name__", name), more);
    return Labels.of(all);
  }
}
