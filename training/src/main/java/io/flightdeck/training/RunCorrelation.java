package io.flightdeck.training;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.Series;
import io.flightdeck.storage.SeriesSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * "What moved with this?": ranks the series of a run's GPUs, hosts and NICs and its training series
 * by how they moved with a target on a {@link CorrelationGrid} ({@link MoverScore}).
 *
 * <p>Candidates: the run's own series (its run label), then every series of its hosts without a
 * {@code gpu} label or another run's label (CPU, memory, disk, NICs), then the series of its GPUs;
 * at most {@link #MAX_CANDIDATES}, in that order. Counters ({@code _total}, {@code _count}, ...)
 * are compared as per-second rates, a reset leaving its interval out; per-CPU series are summed by
 * their other labels. Reading stops at the deadline, with the candidates read so far ranked. Series
 * of the target itself, copies of it under another name, alerts, recorded series ({@code a:b}) and
 * the demo's ground truth are no candidates.
 */
final class RunCorrelation {
  static final int MAX_CANDIDATES = 4000;
  private static final long LOOKBACK_FLOOR_MS = 120_000;
  private static final Set<String> NOT_CANDIDATES =
      Set.of(
          FiringAlerts.ALERTS,
          FiringAlerts.FOR_STATE,
          RunEvents.DEMO_INCIDENT_METRIC,
          "up",
          "scrape_duration_seconds",
          "scrape_samples_scraped",
          "scrape_samples_post_metric_relabeling",
          "scrape_series_added");

  private final Querier querier;
  private final RunCatalogOptions options;
  private final String run;
  private final RunHardware hardware;
  private final CorrelationGrid grid;

  RunCorrelation(
      Querier querier,
      RunCatalogOptions options,
      String run,
      RunHardware hardware,
      CorrelationGrid grid) {
    this.querier = querier;
    this.options = options;
    this.run = run;
    this.hardware = hardware;
    this.grid = grid;
  }

  /** One candidate: its labels as reported, and the series summed into it. */
  private record Candidate(Labels labels, boolean counter, List<Series> parts) {}

  List<Mover> movers(double[] target, List<Labels> targetSeries, int limit, long deadlineNanos) {
    MoverScore.Target scoredTarget = new MoverScore.Target(target, grid.windowFrom());
    Set<Labels> own = new HashSet<>(targetSeries);
    Set<Labels> ownWithoutName = new HashSet<>();
    for (Labels labels : targetSeries) {
      ownWithoutName.add(labels.toBuilder().remove(Labels.METRIC_NAME).build());
    }
    List<Mover> movers = new ArrayList<>();
    for (Candidate candidate : candidates(own)) {
      if (System.nanoTime() > deadlineNanos) {
        break;
      }
      double[] values = new double[grid.points()];
      boolean any = false;
      for (Series part : candidate.parts()) {
        any |= addResampled(values, part, candidate.counter(), any);
      }
      if (!any) {
        continue;
      }
      MoverScore.Result result = MoverScore.score(scoredTarget, values, grid.windowFrom());
      if (result == null) {
        continue;
      }
      boolean copy =
          result.lag() == 0
              && Math.abs(result.correlation()) > 0.99
              && ownWithoutName.contains(
                  candidate.labels().toBuilder().remove(Labels.METRIC_NAME).build());
      if (copy) {
        continue; // the target under another name (llm_train_ and training_ families)
      }
      movers.add(
          new Mover(
              RunEvents.labels(candidate.labels()),
              result.score(),
              result.sign(),
              result.lag() * grid.stepMs() / 1000.0,
              result.correlation(),
              result.change(),
              candidate.counter()));
    }
    movers.sort(
        Comparator.comparingDouble(Mover::score)
            .reversed()
            .thenComparing(m -> m.metric().toString()));
    return movers.size() > limit ? List.copyOf(movers.subList(0, limit)) : movers;
  }

  private List<Candidate> candidates(Set<Labels> own) {
    Map<Labels, Series> training = new LinkedHashMap<>();
    Map<Labels, Series> hosts = new LinkedHashMap<>();
    Map<Labels, Series> gpus = new LinkedHashMap<>();
    collect(training, querier.select(true, Matcher.equal(options.runLabel(), run)), own);
    if (!hardware.hosts().isEmpty()) {
      String alternatives =
          String.join("|", hardware.hosts().stream().map(RunCorrelation::quote).toList());
      Map<Labels, Series> onHosts = new LinkedHashMap<>();
      collect(onHosts, querier.select(true, Matcher.regex("Hostname", alternatives)), own);
      collect(
          onHosts,
          querier.select(true, Matcher.regex("instance", "(?:" + alternatives + ")(?::[0-9]+)?")),
          own);
      for (Map.Entry<Labels, Series> entry : onHosts.entrySet()) {
        Labels labels = entry.getKey();
        if (training.containsKey(labels)) {
          continue;
        }
        if (labels.has(options.runLabel())) {
          continue; // another run's series on a shared host
        }
        if (labels.has("gpu")) {
          if (RunDevices.gpuOf(labels, hardware) != null) {
            gpus.put(labels, entry.getValue());
          }
        } else {
          hosts.put(labels, entry.getValue());
        }
      }
    }
    List<Candidate> all = new ArrayList<>();
    for (Map<Labels, Series> group : List.of(training, hosts, gpus)) {
      Map<Labels, Candidate> summed = new TreeMap<>();
      for (Map.Entry<Labels, Series> entry : group.entrySet()) {
        Labels labels = entry.getKey();
        Labels key = labels.has("cpu") ? labels.toBuilder().remove("cpu").build() : labels;
        summed
            .computeIfAbsent(
                key, k -> new Candidate(k, isCounter(k.metricName()), new ArrayList<>()))
            .parts()
            .add(entry.getValue());
      }
      for (Candidate candidate : summed.values()) {
        if (all.size() < MAX_CANDIDATES) {
          all.add(candidate);
        }
      }
    }
    return all;
  }

  private static void collect(Map<Labels, Series> into, SeriesSet set, Set<Labels> own) {
    while (set.next()) {
      Series series = set.at();
      String name = series.labels().metricName();
      if (own.contains(series.labels()) || NOT_CANDIDATES.contains(name) || name.contains(":")) {
        continue;
      }
      into.putIfAbsent(series.labels(), series);
    }
  }

  /**
   * Adds a series' values (a counter's rate) at each grid instant into {@code into}: the last value
   * at or before it, no older than the lookback. The first part sets, later ones add; an instant
   * any part lacks is NaN. Returns whether any value was found.
   */
  private boolean addResampled(double[] into, Series series, boolean counter, boolean adding) {
    long lookback = Math.max(3 * grid.stepMs(), LOOKBACK_FLOOR_MS);
    SeriesReads.Samples samples =
        SeriesReads.range(series, grid.fromMs() - lookback, grid.lastMs());
    if (counter) {
      samples = rates(samples);
    }
    boolean any = false;
    int i = -1;
    for (int k = 0; k < grid.points(); k++) {
      long t = grid.time(k);
      while (i + 1 < samples.size() && samples.times()[i + 1] <= t) {
        i++;
      }
      double v = i >= 0 && t - samples.times()[i] <= lookback ? samples.values()[i] : Double.NaN;
      any |= !Double.isNaN(v);
      into[k] = adding ? into[k] + v : v;
    }
    return any;
  }

  /**
   * Per-second rates between consecutive samples, at the later one; a reset's interval is left out.
   */
  private static SeriesReads.Samples rates(SeriesReads.Samples samples) {
    long[] times = new long[Math.max(0, samples.size() - 1)];
    double[] values = new double[times.length];
    int n = 0;
    for (int i = 1; i < samples.size(); i++) {
      double delta = samples.values()[i] - samples.values()[i - 1];
      long dt = samples.times()[i] - samples.times()[i - 1];
      if (delta < 0 || dt <= 0) {
        continue;
      }
      times[n] = samples.times()[i];
      values[n++] = delta * 1000.0 / dt;
    }
    return new SeriesReads.Samples(
        java.util.Arrays.copyOf(times, n), java.util.Arrays.copyOf(values, n));
  }

  static boolean isCounter(String name) {
    return name.endsWith("_total")
        || name.endsWith("_count")
        || name.endsWith("_sum")
        || name.endsWith("_bucket")
        || name.endsWith("_TOTAL")
        || name.endsWith("_COUNTER")
        || name.equals("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION");
  }

  /** A host name as a literal in a regex. */
  static String quote(String text) {
    StringBuilder out = new StringBuilder();
    for (char c : text.toCharArray()) {
      if ("\\^$.|?*+()[]{}".indexOf(c) >= 0) {
        out.append('\\');
      }
      out.append(c);
    }
    return out.toString();
  }
}
