package io.flightdeck.bench;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The {@code /metrics} body of one synthetic target: a training node's exporter in Prometheus text
 * format 0.0.4, with step-time and data-loader histograms, process metrics, per-rank training
 * gauges, dcgm-exporter fields for 8 GPUs, network counters and as many {@code
 * node_cpu_seconds_total} series as it takes to reach the requested count. Every family comes with
 * HELP and TYPE lines. Label sets differ per target (host name, GPU UUIDs), as real nodes' do.
 */
final class TargetBody {
  private static final String MODEL = "llama-70b";
  private static final String[] PHASES = {"forward", "backward", "optimizer"};
  private static final double[] STEP_BOUNDS = {
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
  };
  private static final double[] WAIT_BOUNDS = {
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25
  };
  private static final String[] NET_DEVICES = {"eth0", "ib0", "ib1", "ib2", "ib3", "lo"};
  private static final String[] CPU_MODES = {
    "idle", "iowait", "irq", "nice", "softirq", "steal", "system", "user"
  };
  private static final int GPUS = 8;
  private static final int RANKS = 8;

  private final List<TargetSeries> series = new ArrayList<>();
  private final List<TargetHistogram> histograms = new ArrayList<>();
  private final SplittableRandom random;
  private final byte[] digits = new byte[24];
  private final int limit;
  private String family = "";

  /**
   * @param index the target's number, which names its host
   * @param count how many series the body has
   */
  TargetBody(int index, int count, long seed) {
    this.random = new SplittableRandom(seed * 1_000_003 + index);
    this.limit = count;
    String host = String.format(Locale.ROOT, "node-%04d", index);
    for (String phase : PHASES) {
      histogram(
          "train_step_phase_duration_seconds",
          "Time of one training step phase.",
          "model=\"" + MODEL + "\",phase=\"" + phase + "\"",
          STEP_BOUNDS);
    }
    histogram(
        "dataloader_batch_wait_seconds",
        "Time the training loop waited for the next batch.",
        "model=\"" + MODEL + "\"",
        WAIT_BOUNDS);
    add(
        "process_cpu_seconds_total",
        "counter",
        "process_cpu_seconds_total",
        2,
        TargetSeries.Motion.COUNTER,
        1_234_567,
        1_500);
    add(
        "process_resident_memory_bytes",
        "gauge",
        "process_resident_memory_bytes",
        0,
        TargetSeries.Motion.GAUGE,
        38_000_000_000L,
        400_000_000);
    add("process_open_fds", "gauge", "process_open_fds", 0, TargetSeries.Motion.GAUGE, 900, 40);
    add(
        "process_start_time_seconds",
        "gauge",
        "process_start_time_seconds",
        2,
        TargetSeries.Motion.CONSTANT,
        178_000_000_000L,
        0);
    String[][] training = {
      {"train_loss", "6", "2100000", "150000"},
      {"train_learning_rate", "8", "30000", "0"},
      {"train_tokens_per_second", "1", "41000000", "2000000"},
      {"train_grad_norm", "4", "8500", "3000"},
    };
    for (String[] metric : training) {
      for (int rank = 0; rank < RANKS; rank++) {
        int globalRank = index * RANKS + rank;
        add(
            metric[0],
            "gauge",
            metric[0]
                + "{rank=\""
                + globalRank
                + "\",local_rank=\""
                + rank
                + "\",run_id=\"pretrain-2026-11-30\"}",
            Integer.parseInt(metric[1]),
            metric[3].equals("0") ? TargetSeries.Motion.CONSTANT : TargetSeries.Motion.GAUGE,
            Long.parseLong(metric[2]),
            Long.parseLong(metric[3]));
      }
    }
    Object[][] gpuFields = {
      {"DCGM_FI_DEV_GPU_UTIL", "gauge", 0, 85L, 15L},
      {"DCGM_FI_DEV_MEM_COPY_UTIL", "gauge", 0, 40L, 20L},
      {"DCGM_FI_DEV_FB_USED", "gauge", 0, 71_000L, 3_000L},
      {"DCGM_FI_DEV_FB_FREE", "gauge", 0, 9_000L, 3_000L},
      {"DCGM_FI_DEV_GPU_TEMP", "gauge", 0, 64L, 6L},
      {"DCGM_FI_DEV_MEMORY_TEMP", "gauge", 0, 70L, 5L},
      {"DCGM_FI_DEV_POWER_USAGE", "gauge", 3, 520_000L, 90_000L},
      {"DCGM_FI_DEV_SM_CLOCK", "gauge", 0, 1_900L, 80L},
      {"DCGM_FI_DEV_MEM_CLOCK", "gauge", 0, 2_619L, 0L},
      {"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "counter", 0, 9_876_543_210L, 7_800_000L},
      {"DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "gauge", 6, 550_000L, 200_000L},
      {"DCGM_FI_DEV_XID_ERRORS", "gauge", 0, 0L, 0L},
    };
    for (Object[] field : gpuFields) {
      for (int gpu = 0; gpu < GPUS; gpu++) {
        String labels =
            String.format(
                Locale.ROOT,
                "{gpu=\"%d\",UUID=\"GPU-%08x-%04x-4%03x-8000-%012x\",pci_bus_id=\"00000000:%02X:00.0\","
                    + "device=\"nvidia%d\",modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"%s\"}",
                gpu,
                index,
                gpu,
                index % 4096,
                (long) index * GPUS + gpu,
                0x18 + gpu * 0x10,
                gpu,
                host);
        long spread = (Long) field[4];
        TargetSeries.Motion motion =
            field[1].equals("counter")
                ? TargetSeries.Motion.COUNTER
                : spread == 0 ? TargetSeries.Motion.CONSTANT : TargetSeries.Motion.GAUGE;
        add(
            (String) field[0],
            (String) field[1],
            field[0] + labels,
            (Integer) field[2],
            motion,
            (Long) field[3],
            spread);
      }
    }
    String[][] network = {
      {"node_network_receive_bytes_total", "900000000000000", "3000000000"},
      {"node_network_transmit_bytes_total", "880000000000000", "3000000000"},
      {"node_network_receive_packets_total", "120000000000", "400000"},
      {"node_network_transmit_packets_total", "118000000000", "400000"},
    };
    for (String[] metric : network) {
      for (String device : NET_DEVICES) {
        add(
            metric[0],
            "counter",
            metric[0] + "{device=\"" + device + "\"}",
            0,
            TargetSeries.Motion.COUNTER,
            Long.parseLong(metric[1]),
            Long.parseLong(metric[2]));
      }
    }
    for (int i = 0; series.size() < limit; i++) {
      add(
          "node_cpu_seconds_total",
          "counter",
          "node_cpu_seconds_total{cpu=\""
              + i / CPU_MODES.length
              + "\",mode=\""
              + CPU_MODES[i % CPU_MODES.length]
              + "\"}",
          2,
          TargetSeries.Motion.COUNTER,
          100_000_000L + random.nextLong(50_000_000L),
          1_500);
    }
  }

  /** Moves every value on by one interval. */
  void advance() {
    for (TargetSeries s : series) {
      s.advance(random);
    }
    for (TargetHistogram h : histograms) {
      h.advance(random);
    }
  }

  void render(ByteArrayOutputStream out) {
    for (TargetSeries s : series) {
      s.render(out, digits);
    }
  }

  int seriesCount() {
    return series.size();
  }

  private void histogram(String name, String help, String labels, double[] bounds) {
    String header = name.equals(family) ? "" : header(name, help, "histogram");
    TargetSeries[] buckets = new TargetSeries[bounds.length + 1];
    for (int b = 0; b <= bounds.length; b++) {
      String le =
          b < bounds.length
              ? BigDecimal.valueOf(bounds[b]).stripTrailingZeros().toPlainString()
              : "+Inf";
      buckets[b] = set(b == 0 ? header : "", name + "_bucket{" + labels + ",le=\"" + le + "\"}", 0);
    }
    TargetSeries sum = set("", name + "_sum{" + labels + "}", 6);
    TargetSeries count = set("", name + "_count{" + labels + "}", 0);
    histograms.add(new TargetHistogram(bounds, buckets, count, sum, 6));
  }

  private TargetSeries set(String header, String line, int decimals) {
    TargetSeries s = new TargetSeries(header, line, decimals, TargetSeries.Motion.SET, 0, 0);
    addSeries(s);
    return s;
  }

  private void add(
      String name,
      String type,
      String line,
      int decimals,
      TargetSeries.Motion motion,
      long start,
      long spread) {
    String header = name.equals(family) ? "" : header(name, name.replace('_', ' ') + ".", type);
    family = name;
    addSeries(new TargetSeries(header, line, decimals, motion, start, spread));
  }

  private String header(String name, String help, String type) {
    family = name;
    return "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
  }

  /** Keeps the first {@code limit} series; the rest of a small body is cut off. */
  private void addSeries(TargetSeries s) {
    if (series.size() < limit) {
      series.add(s);
    }
  }
}
