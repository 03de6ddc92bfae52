package io.flightdeck.app.cockpit;

import java.util.Locale;
import java.util.Random;

/**
 * Two hours of a small training fleet, ending at a given moment, as Prometheus text with
 * millisecond timestamps (for {@code POST /api/v1/import/prometheus}). Names are dcgm-exporter's,
 * node_exporter's and what training loops export.
 *
 * <ul>
 *   <li>{@value #LLAMA}: 2 nodes x 8 GPUs, running, with a restart from a checkpoint (the step goes
 *       back), a second learning-rate warm-up, epochs, throughput dipping when network receive
 *       peaks, one hot GPU (node-1/3) and an XID 79 on node-1/5.
 *   <li>{@value #BERT}: node-2, 4 GPUs, whose step stopped 25 minutes ago while it still reports (a
 *       hang).
 *   <li>{@value #GPT2}: node-3, 2 GPUs, whose loss went NaN and stopped 40 minutes ago.
 * </ul>
 *
 * Values come from a fixed seed; only the end moment changes between runs.
 */
final class TrainingFleet {
  static final String LLAMA = "llama-7b-fsdp";
  static final String BERT = "bert-base-ft";
  static final String GPT2 = "gpt2-small-nan";
  static final long INTERVAL_MS = 15_000;
  static final int POINTS = 480;
  static final long LLAMA_MAX_STEPS = 20_000;

  private final long endMs;
  private final Random random = new Random(20261207);
  private final StringBuilder out = new StringBuilder(16 << 20);

  TrainingFleet(long endMs) {
    this.endMs = endMs - endMs % 1000;
  }

  long startMs() {
    return endMs - (POINTS - 1) * INTERVAL_MS;
  }

  /** The whole fleet as one Prometheus text body. */
  String text() {
    llama();
    bert();
    gpt2();
    for (int node = 0; node < 4; node++) {
      host("node-" + node, node);
    }
    return out.toString();
  }

  private long t(int i) {
    return startMs() + i * INTERVAL_MS;
  }

  /** The llama run's step at point i: ~1.4 steps/s, back 900 steps at 60 % (a restart). */
  private static double llamaStep(int i) {
    double step = i * 15 * 1.4;
    return i >= POINTS * 6 / 10 ? step - 900 : step;
  }

  private void llama() {
    String run = "run=\"" + LLAMA + "\"";
    for (int node = 0; node < 2; node++) {
      String inst = "instance=\"node-" + node + ":8080\",job=\"trainer\"," + run;
      for (int i = 0; i < POINTS; i++) {
        double step = llamaStep(i);
        double rx = networkRx(i);
        sample("llm_train_step", inst, t(i), Math.floor(step));
        sample("llm_train_max_steps", inst, t(i), LLAMA_MAX_STEPS);
        sample("llm_train_epoch", inst, t(i), step / 4000.0);
        sample(
            "training_samples_per_second",
            inst,
            t(i),
            118 - 55 * Math.max(0, (rx - 0.6e9) / 0.6e9) + random.nextGaussian() * 2);
        if (node == 0) {
          double lr = learningRate(step);
          double rebound = step > 12_000 ? 0.35 * Math.exp(-(step - 12_000) / 1500.0) : 0;
          double loss = 0.9 + 2.6 * Math.exp(-step / 3000.0) + rebound;
          sample("train_loss", inst, t(i), loss + random.nextGaussian() * 0.04);
          sample("llm_learning_rate", inst, t(i), lr);
          sample("llm_train_grad_norm", inst, t(i), 0.8 + Math.abs(random.nextGaussian()) * 0.3);
        }
      }
      for (int gpu = 0; gpu < 8; gpu++) {
        boolean hot = node == 1 && gpu == 3;
        boolean xid = node == 1 && gpu == 5;
        gpuSeries("node-" + node, gpu, 0, POINTS, 92, hot ? 86 : 70, xid ? POINTS * 3 / 4 : -1);
      }
    }
  }

  /** Warm-up to 3e-4 over 1,000 steps, cosine decay, a second warm-up at step 12,000. */
  private static double learningRate(double step) {
    if (step < 1000) {
      return 3e-4 * step / 1000;
    }
    if (step >= 12_000 && step < 12_800) {
      return 3e-5 + (2e-4 - 3e-5) * (step - 12_000) / 800;
    }
    double from = step >= 12_000 ? 12_800 : 1000;
    double peak = step >= 12_000 ? 2e-4 : 3e-4;
    return peak * 0.5 * (1 + Math.cos(Math.PI * Math.min(1, (step - from) / 19_000)));
  }

  /** Bytes/s received by a llama node: bursts every ~10 minutes. */
  private double networkRx(int i) {
    return 0.3e9 + (i % 40 < 6 ? 0.9e9 : 0) + random.nextDouble() * 0.1e9;
  }

  private void bert() {
    String inst = "instance=\"node-2:8080\",job=\"trainer\",run=\"" + BERT + "\"";
    int stallAt = POINTS - 100;
    for (int i = 0; i < POINTS; i++) {
      double step = Math.min(i, stallAt) * 15 * 0.9;
      sample("llm_train_step", inst, t(i), Math.floor(step));
      sample("llm_train_max_steps", inst, t(i), 8000);
      sample(
          "train_loss",
          inst,
          t(i),
          0.4 + 1.8 * Math.exp(-step / 1500.0) + random.nextGaussian() * 0.03);
      sample("llm_learning_rate", inst, t(i), 5e-5);
      sample(
          "training_samples_per_second",
          inst,
          t(i),
          i < stallAt ? 64 + random.nextGaussian() * 3 : 0);
    }
    for (int gpu = 0; gpu < 4; gpu++) {
      gpuSeries("node-2", gpu, 0, POINTS, 85, 64, -1);
    }
  }

  private void gpt2() {
    String inst = "instance=\"node-3:8080\",job=\"trainer\",run=\"" + GPT2 + "\"";
    int last = POINTS - 160;
    for (int i = 0; i <= last; i++) {
      double step = i * 15 * 2.0;
      sample("llm_train_step", inst, t(i), step);
      double loss =
          i >= last - 4
              ? Double.NaN
              : 3.2 * Math.exp(-step / 4000.0) + 1.1 + random.nextGaussian() * 0.05;
      sample("train_loss", inst, t(i), loss);
      sample("llm_learning_rate", inst, t(i), 6e-4);
      sample("training_samples_per_second", inst, t(i), 210 + random.nextGaussian() * 5);
    }
    for (int gpu = 0; gpu < 2; gpu++) {
      gpuSeries("node-3", gpu, 0, last + 1, 97, 72, -1);
    }
  }

  private void gpuSeries(
      String host, int gpu, int from, int to, double util, double temp, int xidAt) {
    String labels =
        String.format(
            Locale.ROOT,
            "gpu=\"%d\",UUID=\"GPU-%s-%d\",Hostname=\"%s\",instance=\"%s:9400\",job=\"dcgm\",modelName=\"NVIDIA H100 80GB HBM3\"",
            gpu,
            host,
            gpu,
            host,
            host);
    double leak = 0;
    for (int i = from; i < to; i++) {
      double u =
          Math.max(0, Math.min(100, util + random.nextGaussian() * 4 - (i % 40 < 6 ? 25 : 0)));
      if (i % 120 == 0) {
        leak += 600; // a staircase at every epoch start
      }
      sample("DCGM_FI_DEV_GPU_UTIL", labels, t(i), Math.round(u));
      sample("DCGM_FI_PROF_SM_ACTIVE", labels, t(i), u / 100 * 0.93);
      sample("DCGM_FI_DEV_FB_USED", labels, t(i), 52_000 + leak + random.nextInt(400));
      sample("DCGM_FI_DEV_FB_FREE", labels, t(i), 81_559 - 52_000 - leak);
      sample("DCGM_FI_DEV_GPU_TEMP", labels, t(i), Math.round(temp + random.nextGaussian() * 1.5));
      sample("DCGM_FI_DEV_POWER_USAGE", labels, t(i), 300 + u * 3.5 + random.nextGaussian() * 10);
      sample("DCGM_FI_DEV_SM_CLOCK", labels, t(i), temp > 82 ? 1600 : 1980);
      sample("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", labels, t(i), temp > 82 ? 32 : 0);
      sample("DCGM_FI_DEV_XID_ERRORS", labels, t(i), xidAt >= 0 && i >= xidAt ? 79 : 0);
    }
  }

  private void host(String host, int node) {
    String inst = "instance=\"" + host + ":9100\",job=\"node\"";
    double[] cpu = new double[8];
    double rxTotal = 0;
    double txTotal = 0;
    double read = 0;
    double written = 0;
    for (int i = 0; i < POINTS; i++) {
      for (int c = 0; c < 4; c++) {
        double busy = 0.55 + random.nextDouble() * 0.3;
        cpu[2 * c] += 15 * (1 - busy);
        cpu[2 * c + 1] += 15 * busy;
        sample(
            "node_cpu_seconds_total", inst + ",cpu=\"" + c + "\",mode=\"idle\"", t(i), cpu[2 * c]);
        sample(
            "node_cpu_seconds_total",
            inst + ",cpu=\"" + c + "\",mode=\"user\"",
            t(i),
            cpu[2 * c + 1]);
      }
      sample("node_memory_MemTotal_bytes", inst, t(i), 2.0e12);
      sample(
          "node_memory_MemAvailable_bytes", inst, t(i), 1.2e12 - i * 4e8 - random.nextInt(1 << 20));
      read += 15 * (2e8 + random.nextDouble() * 1e8);
      written += 15 * (5e7 + (i % 120 < 2 ? 2e9 : 0));
      sample("node_disk_read_bytes_total", inst + ",device=\"nvme0n1\"", t(i), read);
      sample("node_disk_written_bytes_total", inst + ",device=\"nvme0n1\"", t(i), written);
      rxTotal += 15 * (node < 2 ? networkRx(i) : 2e8);
      txTotal += 15 * (node < 2 ? 0.5e9 : 1e8);
      sample("node_network_receive_bytes_total", inst + ",device=\"ib0\"", t(i), rxTotal);
      sample("node_network_transmit_bytes_total", inst + ",device=\"ib0\"", t(i), txTotal);
    }
  }

  private void sample(String name, String labels, long timeMs, double value) {
    out.append(name).append('{').append(labels).append("} ");
    if (Double.isNaN(value)) {
      out.append("NaN");
    } else if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      out.append((long) value);
    } else {
      out.append(String.format(Locale.ROOT, "%.6g", value));
    }
    out.append(' ').append(timeMs).append('\n');
  }
}
