package io.flightdeck.training;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.Queryable;
import io.flightdeck.storage.Series;
import io.flightdeck.storage.SeriesSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The events of one run in a time range: restarts and stalls from the step map, epoch boundaries,
 * the first non-finite loss, alert firing intervals, XID errors and lost GPUs of the run's GPUs,
 * the scripted demo's incidents, and what the detectors find in the run's series (loss spikes, hung
 * ranks, stragglers, data starvation, memory staircases, throughput drops, learning-rate
 * re-warm-ups). The querier covers the range and {@link #LEAD_MS} before it, so a value that
 * changes at the range's start is compared with the one before and detectors have a baseline.
 */
final class RunEvents {
  /** Read before the range, to know each series' value as the range begins. */
  static final long LEAD_MS = 5 * 60_000;

  static final String XID_METRIC = "DCGM_FI_DEV_XID_ERRORS";
  static final String HEALTHY_METRIC = "flightdeck_gpu_healthy";
  static final String PRESENCE_METRIC = "DCGM_FI_DEV_GPU_TEMP";
  static final String DEMO_INCIDENT_METRIC = "flightdeck_demo_incident_active";
  private static final String XID_FELL_OFF_THE_BUS = "79";

  private final Querier querier;
  private final Queryable storage;
  private final RunCatalogOptions options;
  private final String run;
  private final RunHardware hardware;
  private final DropMovers dropMovers;
  private final List<RunEvent> events = new ArrayList<>();
  private final List<long[]> stalls = new ArrayList<>();
  private final List<long[]> pauses = new ArrayList<>();
  private StepMap map = StepMap.EMPTY;
  private long start;
  private long end;

  RunEvents(
      Querier querier,
      Queryable storage,
      RunCatalogOptions options,
      String run,
      RunHardware hardware,
      DropMovers dropMovers) {
    this.querier = querier;
    this.storage = storage;
    this.options = options;
    this.run = run;
    this.hardware = hardware;
    this.dropMovers = dropMovers;
  }

  /** The step map from the run's step series between two times. */
  static StepMap stepMap(RunSeries series, long startMs, long endMs) {
    List<SeriesReads.Samples> samples = new ArrayList<>();
    long runStart = Long.MAX_VALUE;
    for (Series s : series.of(TrainingRole.STEP)) {
      SeriesReads.Samples read = SeriesReads.range(s, startMs, endMs);
      samples.add(read);
      if (!read.isEmpty()) {
        runStart = Math.min(runStart, read.times()[0]);
      }
    }
    return StepMapBuilder.build(samples, runStart);
  }

  /** Every event, sorted by time; {@code series} null when the run has no training series. */
  List<RunEvent> collect(RunSeries series, long startMs, long endMs) {
    this.start = startMs;
    this.end = endMs;
    if (series != null) {
      map = stepMap(series, startMs, endMs);
      restartsAndStalls();
      epochs(series.of(TrainingRole.EPOCH));
      nonFiniteLoss(series.of(TrainingRole.LOSS));
    }
    alerts();
    gpuFaults();
    demoIncidents();
    if (series != null) {
      detect(series);
    }
    events.sort(Comparator.comparingLong(RunEvent::timeMs).thenComparing(RunEvent::kind));
    return events;
  }

  /** The detectors over the run's series; hung ranks are judged in the stalls found so far. */
  private void detect(RunSeries series) {
    RunWindow window =
        new RunWindow(
            querier,
            options,
            run,
            hardware,
            series,
            map,
            List.copyOf(stalls),
            List.copyOf(pauses),
            usualInterval(series),
            start,
            end,
            storage,
            dropMovers);
    List<RunEvent> faults =
        events.stream().filter(e -> e.kind().equals("xid") || e.kind().equals("gpu_lost")).toList();
    events.addAll(HungRanks.detect(window, faults));
    events.addAll(LossSpikes.detect(window));
    events.addAll(Stragglers.detect(window));
    events.addAll(Starvation.detect(window));
    events.addAll(MemoryStaircase.detect(window));
    events.addAll(ThroughputDrops.detect(window));
    events.addAll(LrRewarmups.detect(window));
  }

  /** The median sample interval of the run's first step (else loss) series, at least 1 ms. */
  private long usualInterval(RunSeries series) {
    List<Series> some = series.of(TrainingRole.STEP);
    if (some.isEmpty()) {
      some = series.of(TrainingRole.LOSS);
    }
    if (some.isEmpty()) {
      return 1;
    }
    return Math.max(1, SeriesReads.range(some.get(0), start - LEAD_MS, end).medianInterval());
  }

  private void restartsAndStalls() {
    List<StepMap.Segment> segments = map.segments();
    List<Double> gaps = new ArrayList<>();
    for (StepMap.Segment segment : segments) {
      for (int i = 1; i < segment.size(); i++) {
        if (segment.steps()[i] != segment.steps()[i - 1]) {
          gaps.add((double) (segment.times()[i] - segment.times()[i - 1]));
        }
      }
    }
    double[] sorted = gaps.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    long usual = sorted.length == 0 ? 0 : Math.round(StepProgress.quantile(sorted, 0.5));
    long stall = RunAssessment.stallThreshold(options, usual);
    for (int s = 0; s < segments.size(); s++) {
      StepMap.Segment segment = segments.get(s);
      if (s > 0) {
        StepMap.Segment before = segments.get(s - 1);
        double from = before.steps()[before.size() - 1];
        double to = segment.steps()[0];
        add(
            "restart",
            segment.times()[0],
            null,
            to,
            null,
            null,
            "restart: step " + format(from) + " → " + format(to),
            Map.of(),
            evidence("from_step", from, "to_step", to));
      }
      for (int i = 1; i < segment.size(); i++) {
        long paused = segment.times()[i] - segment.times()[i - 1];
        boolean still = segment.steps()[i] == segment.steps()[i - 1];
        // An early pause counts from the last sample of the step before: the step has not been
        // seen to move since then (it moved at some time up to the plateau's first sample).
        long unmoved = segment.times()[i] - segment.times()[Math.max(0, i - 2)];
        if (still && paused <= stall && usual > 0 && unmoved >= HungRanks.EARLY_INTERVALS * usual) {
          pauses.add(new long[] {segment.times()[i - 1], segment.times()[i]});
        }
        if (still && paused > stall) {
          stalls.add(new long[] {segment.times()[i - 1], segment.times()[i]});
          add(
              "stall",
              segment.times()[i - 1],
              segment.times()[i],
              segment.steps()[i],
              null,
              null,
              "stalled " + (paused / 1000) + " s at step " + format(segment.steps()[i]),
              Map.of(),
              evidence("seconds", paused / 1000.0, "threshold_seconds", stall / 1000.0));
        }
      }
    }
  }

  private void epochs(List<Series> epochSeries) {
    if (epochSeries.isEmpty()) {
      return;
    }
    Series series = epochSeries.get(0);
    SeriesReads.Samples samples = SeriesReads.range(series, start - LEAD_MS, end);
    for (int i = 1; i < samples.size(); i++) {
      double before = Math.floor(samples.values()[i - 1]);
      double now = Math.floor(samples.values()[i]);
      if (now > before && samples.times()[i] >= start) {
        add(
            "epoch",
            samples.times()[i],
            null,
            map.stepAt(samples.times()[i]),
            null,
            null,
            "epoch " + format(now),
            labels(series.labels()),
            evidence("epoch", samples.values()[i]));
      }
    }
  }

  private void nonFiniteLoss(List<Series> lossSeries) {
    for (Series series : lossSeries) {
      SeriesReads.Samples samples = SeriesReads.range(series, start - LEAD_MS, end);
      for (int i = 0; i < samples.size(); i++) {
        double v = samples.values()[i];
        boolean wasFinite = i == 0 || Double.isFinite(samples.values()[i - 1]);
        if (!Double.isFinite(v) && wasFinite && samples.times()[i] >= start) {
          add(
              "nan",
              samples.times()[i],
              null,
              map.stepAt(samples.times()[i]),
              Hosts.of(series.labels()),
              null,
              "loss is " + v,
              labels(series.labels()),
              evidence("value", String.valueOf(v)));
        }
      }
    }
  }

  private void alerts() {
    SeriesSet set =
        querier.select(
            false,
            Matcher.equal(Labels.METRIC_NAME, FiringAlerts.ALERTS),
            Matcher.equal("alertstate", "firing"));
    while (set.next()) {
      Series series = set.at();
      Labels alert = FiringAlerts.identity(series.labels());
      if (!FiringAlerts.concerns(alert, run, options.runLabel(), hardware)) {
        continue;
      }
      SeriesReads.Samples samples = SeriesReads.range(series, start - LEAD_MS, end);
      for (long[] interval : intervals(samples, v -> true)) {
        add(
            "alert",
            interval[0],
            interval[1] == Long.MIN_VALUE ? null : interval[1],
            map.stepAt(interval[0]),
            nullIfEmpty(Hosts.of(alert)),
            nullIfEmpty(alert.get("gpu")),
            alert.get("alertname"),
            labels(alert),
            null);
      }
    }
  }

  private void gpuFaults() {
    if (hardware.gpus().isEmpty()) {
      return;
    }
    forRunGpus(
        XID_METRIC,
        (gpu, series, samples) -> {
          for (int i = 0; i < samples.size(); i++) {
            double code = samples.values()[i];
            double before = i == 0 ? 0 : samples.values()[i - 1];
            long t = samples.times()[i];
            if (code == 0 || code == before || t < start) {
              continue;
            }
            String xid = format(code);
            String message = series.labels().get("err_msg");
            Map<String, Object> evidence = evidence("xid", code, "err_msg", message);
            add(
                "xid",
                t,
                null,
                map.stepAt(t),
                gpu.host(),
                gpu.gpu(),
                "XID " + xid,
                labels(series.labels()),
                evidence);
            if (xid.equals(XID_FELL_OFF_THE_BUS)) {
              add(
                  "gpu_lost",
                  t,
                  null,
                  map.stepAt(t),
                  gpu.host(),
                  gpu.gpu(),
                  "GPU lost (XID 79)",
                  labels(series.labels()),
                  evidence);
            }
          }
        });
    forRunGpus(
        HEALTHY_METRIC,
        (gpu, series, samples) -> {
          for (int i = 0; i < samples.size(); i++) {
            boolean wasHealthy = i == 0 || samples.values()[i - 1] != 0;
            long t = samples.times()[i];
            if (samples.values()[i] == 0 && wasHealthy && t >= start) {
              String reason = series.labels().get("reason");
              add(
                  "gpu_lost",
                  t,
                  null,
                  map.stepAt(t),
                  gpu.host(),
                  gpu.gpu(),
                  "GPU lost: " + reason,
                  labels(series.labels()),
                  evidence("reason", reason));
            }
          }
        });
    vanishedGpus();
  }

  /**
   * A GPU whose presence series stops while another GPU of its host still reports, by more than
   * three of its usual intervals, was lost where its series stopped, unless an XID 79 or the health
   * gauge already said so.
   */
  private void vanishedGpus() {
    Map<String, Long> hostLast = new HashMap<>();
    Map<RunGpu, SeriesReads.Samples> runGpus = new LinkedHashMap<>();
    SeriesSet set = querier.select(false, Matcher.equal(Labels.METRIC_NAME, PRESENCE_METRIC));
    while (set.next()) {
      Series series = set.at();
      java.util.Set<String> hosts = Hosts.allOf(series.labels());
      if (hosts.stream().noneMatch(hardware.hosts()::contains)) {
        continue; // only the run's hosts are read
      }
      SeriesReads.Samples samples = SeriesReads.tail(series, end, LEAD_MS, 3, start - LEAD_MS);
      if (samples.isEmpty()) {
        continue;
      }
      for (String host : hosts) {
        hostLast.merge(host, samples.lastTime(), Math::max);
      }
      RunGpu gpu = runGpu(series.labels());
      if (gpu != null) {
        runGpus.put(gpu, samples);
      }
    }
    for (Map.Entry<RunGpu, SeriesReads.Samples> entry : runGpus.entrySet()) {
      RunGpu gpu = entry.getKey();
      SeriesReads.Samples samples = entry.getValue();
      long last = samples.lastTime();
      long others = hostLast.getOrDefault(gpu.host(), last);
      long usual = Math.max(samples.medianInterval(), 1000);
      boolean known =
          events.stream()
              .anyMatch(
                  e ->
                      e.kind().equals("gpu_lost")
                          && gpu.gpu().equals(e.gpu())
                          && gpu.host().equals(e.host()));
      if (others - last > 3 * usual && last >= start && !known) {
        add(
            "gpu_lost",
            last,
            null,
            map.stepAt(last),
            gpu.host(),
            gpu.gpu(),
            "GPU " + gpu.gpu() + " stopped reporting",
            Map.of(),
            evidence("last_sample", last / 1000.0, "host_last_sample", others / 1000.0));
      }
    }
  }

  private void demoIncidents() {
    SeriesSet set =
        querier.select(
            false,
            Matcher.equal(Labels.METRIC_NAME, DEMO_INCIDENT_METRIC),
            Matcher.equal(options.runLabel(), run));
    while (set.next()) {
      Series series = set.at();
      SeriesReads.Samples samples = SeriesReads.range(series, start - LEAD_MS, end);
      for (long[] interval : intervals(samples, v -> v == 1)) {
        Labels labels = series.labels();
        add(
            "demo_incident",
            interval[0],
            interval[1] == Long.MIN_VALUE ? null : interval[1],
            map.stepAt(interval[0]),
            nullIfEmpty(Hosts.of(labels)),
            nullIfEmpty(labels.get("gpu")),
            labels.has("title") ? labels.get("title") : labels.get("incident"),
            labels(labels),
            Map.of("incident", labels.get("incident")));
      }
    }
  }

  @FunctionalInterface
  private interface GpuSamples {
    void accept(RunGpu gpu, Series series, SeriesReads.Samples samples);
  }

  private void forRunGpus(String metric, GpuSamples action) {
    SeriesSet set = querier.select(false, Matcher.equal(Labels.METRIC_NAME, metric));
    while (set.next()) {
      Series series = set.at();
      RunGpu gpu = runGpu(series.labels());
      if (gpu != null) {
        action.accept(gpu, series, SeriesReads.range(series, start - LEAD_MS, end));
      }
    }
  }

  /** The run's GPU a GPU series belongs to, or null. */
  private RunGpu runGpu(Labels labels) {
    return RunDevices.gpuOf(labels, hardware);
  }

  /**
   * Stretches of consecutive samples whose value is active, split where a sample is inactive or the
   * gap exceeds three usual intervals; {@code {from, to}}, {@code to} {@link Long#MIN_VALUE} while
   * still open at the range's end. Only stretches reaching into the range are kept.
   */
  private List<long[]> intervals(
      SeriesReads.Samples samples, java.util.function.DoublePredicate active) {
    List<long[]> found = new ArrayList<>();
    long maxGap = 3 * Math.max(samples.medianInterval(), 1000);
    long from = Long.MIN_VALUE;
    long last = Long.MIN_VALUE;
    for (int i = 0; i < samples.size(); i++) {
      long t = samples.times()[i];
      boolean on = active.test(samples.values()[i]);
      if (from != Long.MIN_VALUE && (!on || t - last > maxGap)) {
        found.add(new long[] {from, last});
        from = Long.MIN_VALUE;
      }
      if (on) {
        if (from == Long.MIN_VALUE) {
          from = t;
        }
        last = t;
      }
    }
    if (from != Long.MIN_VALUE) {
      boolean open = end - last <= maxGap;
      found.add(new long[] {from, open ? Long.MIN_VALUE : last});
    }
    found.removeIf(i -> (i[1] != Long.MIN_VALUE && i[1] < start) || i[0] > end);
    return found;
  }

  private void add(
      String kind,
      long time,
      Long endTime,
      Double step,
      String host,
      String gpu,
      String title,
      Map<String, String> labels,
      Map<String, Object> evidence) {
    events.add(
        new RunEvent(kind, time, endTime, step, nullIfEmpty(host), gpu, title, labels, evidence));
  }

  /** An event as detectors make them; an empty host is none. */
  static RunEvent event(
      String kind,
      long time,
      Long endTime,
      Double step,
      String host,
      String gpu,
      String title,
      Map<String, String> labels,
      Map<String, Object> evidence) {
    return new RunEvent(kind, time, endTime, step, nullIfEmpty(host), gpu, title, labels, evidence);
  }

  static Map<String, String> labels(Labels labels) {
    Map<String, String> map = new TreeMap<>();
    labels.forEach(map::put);
    return map;
  }

  static Map<String, Object> evidence(Object... pairs) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put((String) pairs[i], pairs[i + 1]);
    }
    return map;
  }

  private static String nullIfEmpty(String value) {
    return value == null || value.isEmpty() ? null : value;
  }

  static String format(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15
        ? Long.toString((long) value)
        : Double.toString(value);
  }
}
