package io.flightdeck.training;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.Series;
import io.flightdeck.storage.SeriesSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Alerts firing now, from the {@code ALERTS{alertstate="firing"}} series the rule engine writes at
 * each evaluation (a staleness marker once resolved), with their start from {@code
 * ALERTS_FOR_STATE}. An alert concerns a run when it carries the run's label, or names one of the
 * run's hosts and either no GPU or one of the run's GPUs.
 */
final class FiringAlerts {
  static final String ALERTS = "ALERTS";
  static final String FOR_STATE = "ALERTS_FOR_STATE";

  private final List<RunAlert> firing;
  private final List<Labels> firingLabels;

  private FiringAlerts(List<RunAlert> firing, List<Labels> firingLabels) {
    this.firing = firing;
    this.firingLabels = firingLabels;
  }

  /**
   * Reads the alerts whose last sample, not a staleness marker, is at most {@code freshMs} old at
   * {@code nowMs}; {@code querier} must cover {@code [nowMs - freshMs, nowMs]} at least.
   */
  static FiringAlerts read(Querier querier, long nowMs, long freshMs) {
    Map<Labels, Long> activeSince = new HashMap<>();
    SeriesSet states = querier.select(false, Matcher.equal(Labels.METRIC_NAME, FOR_STATE));
    while (states.next()) {
      Series series = states.at();
      SeriesReads.Samples tail = SeriesReads.tail(series, nowMs, freshMs, 1, nowMs - freshMs);
      if (!tail.isEmpty()) {
        activeSince.put(identity(series.labels()), Math.round(tail.lastValue() * 1000));
      }
    }
    List<RunAlert> firing = new ArrayList<>();
    List<Labels> labels = new ArrayList<>();
    SeriesSet alerts =
        querier.select(
            false,
            Matcher.equal(Labels.METRIC_NAME, ALERTS),
            Matcher.equal("alertstate", "firing"));
    while (alerts.next()) {
      Series series = alerts.at();
      long first = firingSince(series, nowMs - freshMs);
      if (first == Long.MIN_VALUE) {
        continue;
      }
      Labels identity = identity(series.labels());
      Map<String, String> shown = new TreeMap<>();
      identity.forEach(shown::put);
      firing.add(
          new RunAlert(
              identity.get("alertname"),
              identity.has("severity") ? identity.get("severity") : null,
              "firing",
              activeSince.getOrDefault(identity, first),
              shown));
      labels.add(identity);
    }
    return new FiringAlerts(firing, labels);
  }

  /**
   * The first sample of the series when its last sample at or after {@code freshFrom} is live, or
   * {@link Long#MIN_VALUE} when it is not firing now.
   */
  private static long firingSince(Series series, long freshFrom) {
    SampleIterator it = series.iterator(null);
    if (!it.next()) {
      return Long.MIN_VALUE;
    }
    long first = it.timestamp();
    if (!it.seek(freshFrom)) {
      return Long.MIN_VALUE;
    }
    boolean live = false;
    do {
      live = !StaleMarker.is(it.value());
    } while (it.next());
    return live ? first : Long.MIN_VALUE;
  }

  /** The alert's labels without the metric name and state, as the rule engine identifies it. */
  static Labels identity(Labels labels) {
    return labels.toBuilder().remove(Labels.METRIC_NAME).remove("alertstate").build();
  }

  /** The firing alerts that concern a run. */
  List<RunAlert> of(String run, String runLabel, RunHardware hardware) {
    List<RunAlert> mine = new ArrayList<>();
    for (int i = 0; i < firing.size(); i++) {
      if (concerns(firingLabels.get(i), run, runLabel, hardware)) {
        mine.add(firing.get(i));
      }
    }
    return mine;
  }

  /** Whether an alert (or any series with an alert's labels) concerns a run. */
  static boolean concerns(Labels alert, String run, String runLabel, RunHardware hardware) {
    String alertRun = alert.get(runLabel);
    if (!alertRun.isEmpty()) {
      return alertRun.equals(run);
    }
    for (String host : Hosts.allOf(alert)) {
      if (!hardware.hosts().contains(host)) {
        continue;
      }
      if (!alert.has("gpu")) {
        return true;
      }
      for (RunGpu gpu : hardware.gpus()) {
        if (gpu.gpu().equals(alert.get("gpu")) && gpu.host().equals(host)) {
          return true;
        }
      }
    }
    return false;
  }
}
