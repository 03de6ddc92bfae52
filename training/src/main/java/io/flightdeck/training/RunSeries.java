package io.flightdeck.training;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.Series;
import io.flightdeck.storage.SeriesSet;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The training series of one run, by role: for each role only the series of its most preferred name
 * (one per rank or target). Series stay valid while the querier they came from is open.
 */
final class RunSeries {
  private final String run;
  private final Map<TrainingRole, List<Series>> byRole = new EnumMap<>(TrainingRole.class);
  private final Map<TrainingRole, Integer> bestRank = new EnumMap<>(TrainingRole.class);
  private final List<Labels> labels = new ArrayList<>();

  private RunSeries(String run) {
    this.run = run;
  }

  /**
   * The runs whose label matches {@code runMatcher}, each with its training series, sorted by run
   * name. Runs with a run label but no training series are included, empty.
   */
  static Map<String, RunSeries> select(Querier querier, String runLabel, Matcher runMatcher) {
    Map<String, RunSeries> runs = new TreeMap<>();
    for (String run : querier.labelValues(runLabel, runMatcher)) {
      runs.put(run, new RunSeries(run));
    }
    SeriesSet set =
        querier.select(
            false, runMatcher, Matcher.regex(Labels.METRIC_NAME, TrainingRole.NAME_REGEX));
    while (set.next()) {
      Series series = set.at();
      String run = series.labels().get(runLabel);
      runs.computeIfAbsent(run, RunSeries::new).add(series);
    }
    return runs;
  }

  private void add(Series series) {
    boolean any = false;
    for (TrainingRole role : TrainingRole.values()) {
      int rank = role.rank(series.labels());
      if (rank < 0) {
        continue;
      }
      any = true;
      Integer best = bestRank.get(role);
      if (best == null || rank < best) {
        bestRank.put(role, rank);
        byRole.put(role, new ArrayList<>(List.of(series)));
      } else if (rank == best) {
        byRole.get(role).add(series);
      }
    }
    if (any) {
      labels.add(series.labels());
    }
  }

  String run() {
    return run;
  }

  /** The series of a role, empty when the run has none. */
  List<Series> of(TrainingRole role) {
    return byRole.getOrDefault(role, List.of());
  }

  /** Every series that carries some role, all roles together, each once. */
  List<Series> all() {
    List<Series> all = new ArrayList<>();
    java.util.Set<Labels> seen = new java.util.HashSet<>();
    for (List<Series> list : byRole.values()) {
      for (Series series : list) {
        if (seen.add(series.labels())) {
          all.add(series);
        }
      }
    }
    return all;
  }

  /** The labels of every training series the run has, whatever its preference. */
  List<Labels> labels() {
    return labels;
  }

  boolean isEmpty() {
    return labels.isEmpty();
  }
}
