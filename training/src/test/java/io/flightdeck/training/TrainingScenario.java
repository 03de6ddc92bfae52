package io.flightdeck.training;

import static io.flightdeck.training.TrainingStore.labels;

import io.flightdeck.model.StaleMarker;

/**
 * A realistic hour of training on a 2-node cluster (4 GPUs per node, dcgm-exporter names), at a 15
 * s scrape interval; "now" is one hour after {@link TrainingStore#T0}.
 *
 * <ul>
 *   <li>{@code llama}: 2 ranks per node (local_rank 0 and 1) at 2 steps/s, max_steps 10000, epoch =
 *       step/1000; restarts at 30 min from its checkpoint at step 3000; rank 1 of node-1 lags by
 *       two steps; XID 13 on node-1 GPU 1 at 20 min, with a firing alert; a demo incident from 20
 *       to 25 min.
 *   <li>{@code stuck}: steps until 20 min, then reports the same step until now.
 *   <li>{@code dead}: stops reporting at 30 min.
 *   <li>{@code done}: reaches its max_steps (600) at 5 min and keeps reporting.
 *   <li>{@code jitter}: 25, 30 or 35 steps per 15 s in turn (2 steps/s at the median), max_steps
 *       100000.
 *   <li>{@code hf}: a TensorBoard run of Hugging Face's Trainer, no max_steps known, that wrote its
 *       end-of-training summary at 40 min and nothing since.
 *   <li>{@code attributed}: two ranks on node-5, whose GPUs 2 and 3 (not 0 and 1) hold the ranks'
 *       processes by Flightdeck's process attribution; GPU 0 runs another job's process.
 * </ul>
 *
 * <p>node-0's GPU 1 reports XID 79 and stops reporting at 50 min while its other GPUs go on: llama
 * lost it.
 */
final class TrainingScenario {
  static final long NOW_SECONDS = 3600;
  static final long NOW_MS = TrainingStore.T0 + NOW_SECONDS * 1000;
  static final long RESTART_SECONDS = 1800;
  static final long XID_SECONDS = 1200;
  static final long LOST_SECONDS = 3000;
  static final long HF_END_SECONDS = 2400;

  private TrainingScenario() {}

  /** llama's step at a time, for rank lag {@code lag}. */
  static double llamaStep(long s) {
    return s < RESTART_SECONDS ? 2 * s : 3000 + 2 * (s - RESTART_SECONDS);
  }

  static void write(TrainingStore store) {
    for (String host : new String[] {"node-0", "node-1"}) {
      for (String rank : new String[] {"0", "1"}) {
        boolean lagging = host.equals("node-1") && rank.equals("1");
        String[] id = {
          "run", "llama", "job", "train", "instance", host + ":800" + rank, "local_rank", rank
        };
        store.series(
            labels(concat(id, "__name__", "llm_train_step")),
            0,
            NOW_SECONDS,
            15,
            s -> Math.max(0, llamaStep(s) - (lagging ? 2 : 0)));
        store.series(
            labels(concat(id, "__name__", "llm_train_loss")),
            0,
            NOW_SECONDS,
            15,
            s -> 3.0 / (1 + llamaStep(s) / 1000.0));
      }
      for (int gpu = 0; gpu < 4; gpu++) {
        String[] g = {
          "Hostname",
          host,
          "instance",
          host + ":9400",
          "job",
          "dcgm",
          "gpu",
          Integer.toString(gpu),
          "UUID",
          "GPU-" + host + "-" + gpu
        };
        boolean lost = host.equals("node-0") && gpu == 1;
        store.series(
            labels(concat(g, "__name__", "DCGM_FI_DEV_GPU_TEMP")),
            0,
            lost ? LOST_SECONDS : NOW_SECONDS,
            15,
            s -> 60);
        boolean faulty = host.equals("node-1") && gpu == 1;
        store.series(
            labels(concat(g, "__name__", "DCGM_FI_DEV_XID_ERRORS")),
            0,
            NOW_SECONDS,
            15,
            s -> faulty && s >= XID_SECONDS ? 13 : 0);
        if (lost) {
          // As Flightdeck's collector reports an Xid: a new series labelled with its code.
          store.sample(
              labels(
                  concat(
                      g,
                      "__name__",
                      "DCGM_FI_DEV_XID_ERRORS",
                      "err_code",
                      "79",
                      "err_msg",
                      "GPU has fallen off the bus")),
              LOST_SECONDS,
              79);
        }
      }
    }
    String[] llama0 = {
      "run", "llama", "job", "train", "instance", "node-0:8000", "local_rank", "0"
    };
    store.series(
        labels(concat(llama0, "__name__", "llm_train_max_steps")), 0, NOW_SECONDS, 15, s -> 10000);
    store.series(
        labels(concat(llama0, "__name__", "llm_train_epoch")),
        0,
        NOW_SECONDS,
        15,
        s -> llamaStep(s) / 1000.0);
    store.series(
        labels(concat(llama0, "__name__", "llm_train_samples_per_second")),
        0,
        NOW_SECONDS,
        15,
        s -> 64);
    store.series(
        labels(
            "__name__",
            "ALERTS",
            "alertname",
            "GPUXIDCriticalError",
            "alertstate",
            "firing",
            "severity",
            "critical",
            "Hostname",
            "node-1",
            "gpu",
            "1"),
        XID_SECONDS,
        NOW_SECONDS,
        15,
        s -> 1);
    store.series(
        labels(
            "__name__",
            "ALERTS",
            "alertname",
            "GPUTemperatureHigh",
            "alertstate",
            "firing",
            "severity",
            "warning",
            "Hostname",
            "node-9",
            "gpu",
            "1"),
        XID_SECONDS,
        NOW_SECONDS,
        15,
        s -> 1);
    store.series(
        labels(
            "__name__",
            "flightdeck_demo_incident_active",
            "incident",
            "xid-13",
            "run",
            "llama",
            "title",
            "XID 13 on node-1"),
        0,
        NOW_SECONDS,
        15,
        s -> s >= XID_SECONDS && s < XID_SECONDS + 300 ? 1 : 0);

    String[] stuck = {"run", "stuck", "job", "train", "instance", "node-2:8000"};
    store.series(
        labels(concat(stuck, "__name__", "llm_train_step")),
        0,
        NOW_SECONDS,
        15,
        s -> Math.min(s, 1200));
    store.series(
        labels(concat(stuck, "__name__", "llm_train_max_steps")), 0, NOW_SECONDS, 15, s -> 100000);

    String[] dead = {"run", "dead", "job", "train", "instance", "node-3:8000"};
    store.series(labels(concat(dead, "__name__", "llm_train_step")), 0, 1800, 15, s -> s);
    store.sample(labels(concat(dead, "__name__", "llm_train_step")), 1815, StaleMarker.VALUE);

    String[] done = {"run", "done", "job", "train", "instance", "node-4:8000"};
    store.series(
        labels(concat(done, "__name__", "train_step")),
        0,
        NOW_SECONDS,
        15,
        s -> Math.min(2 * s, 600));
    store.series(labels(concat(done, "__name__", "train_max_steps")), 0, NOW_SECONDS, 15, s -> 600);

    String[] jitter = {"run", "jitter", "job", "train", "instance", "node-6:8000"};
    int[] increments = {25, 30, 35};
    store.series(
        labels(concat(jitter, "__name__", "llm_train_step")),
        0,
        NOW_SECONDS,
        15,
        s -> {
          double step = 0;
          for (long k = 1; k <= s / 15; k++) {
            step += increments[(int) (k % 3)];
          }
          return step;
        });
    store.series(
        labels(concat(jitter, "__name__", "llm_train_max_steps")), 0, NOW_SECONDS, 15, s -> 100000);

    String[] hf = {"run", "hf", "logdir", "/logs"};
    store.series(
        labels(concat(hf, "__name__", "tensorboard_scalar_step", "tag", "train/loss")),
        0,
        HF_END_SECONDS,
        30,
        s -> s);
    store.series(
        labels(concat(hf, "__name__", "tensorboard_scalar", "tag", "train/loss")),
        0,
        HF_END_SECONDS,
        30,
        s -> 1.0);
    store.sample(
        labels(concat(hf, "__name__", "tensorboard_scalar", "tag", "train/train_runtime")),
        HF_END_SECONDS,
        HF_END_SECONDS);

    for (int gpu = 0; gpu < 4; gpu++) {
      String[] g = {
        "Hostname", "node-5", "gpu", Integer.toString(gpu), "UUID", "GPU-node-5-" + gpu
      };
      store.series(
          labels(concat(g, "__name__", "DCGM_FI_DEV_GPU_TEMP")), 0, NOW_SECONDS, 15, s -> 55);
    }
    String[][] processes = {{"2", "0", "101"}, {"3", "1", "102"}, {"0", "7", "999"}};
    for (String[] p : processes) {
      store.series(
          labels(
              "__name__",
              "flightdeck_gpu_process_memory_bytes",
              "Hostname",
              "node-5",
              "gpu",
              p[0],
              "UUID",
              "GPU-node-5-" + p[0],
              "pid",
              p[2],
              "rank",
              p[1]),
          0,
          NOW_SECONDS,
          15,
          s -> 1e9);
    }
    for (String rank : new String[] {"0", "1"}) {
      store.series(
          labels(
              "__name__",
              "llm_train_step",
              "run",
              "attributed",
              "instance",
              "node-5:800" + rank,
              "rank",
              rank,
              "local_rank",
              rank),
          0,
          NOW_SECONDS,
          15,
          s -> s);
    }
  }

  static String[] concat(String[] first, String... more) {
    String[] all = java.util.Arrays.copyOf(first, first.length + more.length);
    System.arraycopy(more, 0, all, first.length, more.length);
    return all;
  }
}
