package io.flightdeck.app;

import io.flightdeck.app.RemoteWriteEncoder.TimeSeries;
import io.flightdeck.model.Labels;
import io.flightdeck.model.StaleMarker;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Two hours of a small training cluster, generated from a fixed seed: GPU utilisation and memory
 * per GPU, network counters (one resets mid-way, as after a node reboot), the loss of two runs (one
 * stops with a stale marker, the other has a gap), XID errors and a request-latency histogram.
 * Samples come every 15 s with up to a second of jitter and never on a whole second, so no sample
 * sits exactly on a window boundary at whole-second evaluation times; that is where Prometheus 2
 * (closed windows) and 3 (left-open windows) differ.
 */
final class TrainingClusterData {
  static final long INTERVAL_MS = 15_000;
  static final int POINTS = 480;

  final long start;
  private final List<TimeSeries> series = new ArrayList<>();
  private final Random random = new Random(20261130);

  TrainingClusterData(long start) {
    this.start = start;
    for (String host : List.of("node-a", "node-b")) {
      for (int gpu = 0; gpu < 4; gpu++) {
        Labels base =
            Labels.of("Hostname", host, "gpu", String.valueOf(gpu), "UUID", "GPU-" + host + gpu);
        series.add(gauge(with(base, "DCGM_FI_DEV_GPU_UTIL"), 0, 100, 60));
        series.add(gauge(with(base, "DCGM_FI_DEV_FB_USED"), 1000, 80_000, 40_000));
        series.add(xid(with(base, "DCGM_FI_DEV_XID_ERRORS"), host.equals("node-b") && gpu == 2));
      }
      Labels net =
          Labels.of(
              "__name__", "node_network_receive_bytes_total", "instance", host, "device", "eth0");
      series.add(counter(net, host.equals("node-b") ? POINTS / 2 : -1));
    }
    series.add(loss(Labels.of("__name__", "train_loss", "run", "a"), 360, -1));
    series.add(loss(Labels.of("__name__", "train_loss", "run", "b"), POINTS, 200));
    double[] bounds = {0.1, 0.5, 1, Double.POSITIVE_INFINITY};
    double[] cumulative = new double[bounds.length];
    long[] t = timestamps(POINTS);
    double[][] values = new double[bounds.length][POINTS];
    for (int i = 0; i < POINTS; i++) {
      double observations = 5 + random.nextInt(20);
      double below = 0;
      for (int b = 0; b < bounds.length; b++) {
        below =
            b == bounds.length - 1
                ? observations
                : Math.min(observations, below + random.nextInt(8));
        cumulative[b] += below;
        values[b][i] = cumulative[b];
      }
    }
    for (int b = 0; b < bounds.length; b++) {
      String le = Double.isInfinite(bounds[b]) ? "+Inf" : String.valueOf(bounds[b]);
      series.add(
          new TimeSeries(
              Labels.of("__name__", "request_duration_seconds_bucket", "job", "trainer", "le", le),
              t,
              values[b]));
    }
  }

  List<TimeSeries> series() {
    return series;
  }

  long end() {
    return start + POINTS * INTERVAL_MS;
  }

  /** The series cut into batches of {@code points} samples, oldest first, as a sender would. */
  List<List<TimeSeries>> batches(int points) {
    List<List<TimeSeries>> out = new ArrayList<>();
    for (int from = 0; from < POINTS; from += points) {
      List<TimeSeries> batch = new ArrayList<>();
      for (TimeSeries s : series) {
        int lo = Math.min(from, s.timestamps().length);
        int hi = Math.min(from + points, s.timestamps().length);
        if (lo < hi) {
          batch.add(
              new TimeSeries(
                  s.labels(),
                  java.util.Arrays.copyOfRange(s.timestamps(), lo, hi),
                  java.util.Arrays.copyOfRange(s.values(), lo, hi)));
        }
      }
      out.add(batch);
    }
    return out;
  }

  private static Labels with(Labels base, String name) {
    return base.toBuilder().set("__name__", name).build();
  }

  private long[] timestamps(int count) {
    long[] t = new long[count];
    for (int i = 0; i < count; i++) {
      t[i] = start + i * INTERVAL_MS + 1 + 2 * random.nextInt(499);
    }
    return t;
  }

  private TimeSeries gauge(Labels labels, double min, double max, double initial) {
    long[] t = timestamps(POINTS);
    double[] v = new double[POINTS];
    double x = initial;
    for (int i = 0; i < POINTS; i++) {
      x = Math.max(min, Math.min(max, x + (random.nextDouble() - 0.5) * (max - min) / 10));
      v[i] = x;
    }
    return new TimeSeries(labels, t, v);
  }

  private TimeSeries xid(Labels labels, boolean faulty) {
    long[] t = timestamps(POINTS);
    double[] v = new double[POINTS];
    for (int i = 0; i < POINTS; i++) {
      v[i] = faulty && i > 300 ? 79 : 0;
    }
    return new TimeSeries(labels, t, v);
  }

  private TimeSeries counter(Labels labels, int resetAt) {
    long[] t = timestamps(POINTS);
    double[] v = new double[POINTS];
    double x = 1e9 * random.nextDouble();
    for (int i = 0; i < POINTS; i++) {
      x = i == resetAt ? random.nextInt(1000) : x + 1e5 + random.nextInt(1_000_000);
      v[i] = x;
    }
    return new TimeSeries(labels, t, v);
  }

  /**
   * A run's loss, ending with a stale marker after {@code points}, missing 40 points at {@code
   * gapAt}.
   */
  private TimeSeries loss(Labels labels, int points, int gapAt) {
    long[] all = timestamps(POINTS);
    List<Long> t = new ArrayList<>();
    List<Double> v = new ArrayList<>();
    double loss = 4;
    for (int i = 0; i < points; i++) {
      loss = loss * 0.995 + random.nextDouble() * 0.02;
      if (gapAt >= 0 && i >= gapAt && i < gapAt + 40) {
        continue;
      }
      t.add(all[i]);
      v.add(loss);
    }
    if (points < POINTS) {
      t.add(all[points]);
      v.add(StaleMarker.VALUE);
    }
    return new TimeSeries(
        labels,
        t.stream().mapToLong(Long::longValue).toArray(),
        v.stream().mapToDouble(Double::doubleValue).toArray());
  }
}
