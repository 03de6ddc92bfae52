package io.flightdeck.training;

import io.flightdeck.testkit.ManualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The detectors measured, not asserted: per detector, the delay from an incident's true onset to
 * the first range end at which its event appears, precision and recall, over the demo's incidents
 * (its timings and sizes) and generated variations (onset, scrape interval, size, GPU, noise seed),
 * and the false events over healthy 6-hour runs with failed scrapes, gaps, counter resets,
 * staleness and restarts. Not part of the suite (no {@code Test} in its name): run it with {@code
 * -Dtest=DetectorBenchmark}; it prints the table and writes it to {@code
 * target/detector-benchmark.md} (copied by hand to {@code bench/detectors.md}).
 */
class DetectorBenchmark {
  private static final long HOURS_4 = 4 * 3600;
  private static final long HOURS_6 = 6 * 3600;
  private static final int VARIATIONS = 4;

  /** One labelled incident run. */
  private record Case(
      String name,
      String kind,
      Set<String> allowed,
      long every,
      long onset,
      long end,
      SimulatedRun.Faults faults) {}

  /** What one case gave. */
  private record Outcome(Case c, Double delaySeconds, List<RunEvent> events) {}

  @Test
  void measure(@TempDir Path dir) throws IOException {
    List<Case> cases = new ArrayList<>(demoCases());
    Random random = new Random(2026);
    for (int v = 0; v < VARIATIONS; v++) {
      cases.addAll(variations(random, v));
    }
    List<Outcome> outcomes = new ArrayList<>();
    int n = 0;
    for (Case c : cases) {
      outcomes.add(run(dir.resolve("c" + n++), c));
    }
    Map<String, Integer> falseOnHealthy = new TreeMap<>();
    int healthyRuns = 0;
    for (int seed = 0; seed < 8; seed++) {
      for (RunEvent e : healthy(dir.resolve("h" + seed), seed)) {
        if (!Set.of("epoch", "restart").contains(e.kind())) {
          falseOnHealthy.merge(e.kind(), 1, Integer::sum);
        }
      }
      healthyRuns++;
    }
    String report = report(outcomes, falseOnHealthy, healthyRuns);
    System.out.println(report);
    Files.writeString(Path.of("target/detector-benchmark.md"), report);
  }

  // --- the cases --------------------------------------------------------------------------

  /**
   * The demo's script (DemoScript, ClusterModel): its onsets, lengths and sizes at 20 s scrapes.
   */
  private static List<Case> demoCases() {
    long every = 20;
    return List.of(
        new Case("demo nan-loss", "nan", Set.of(), every, 1200, 1500, nan(1200, 1500)),
        new Case(
            "demo hot-gpu (throttled clock)",
            "straggler",
            Set.of(),
            every,
            1350, // 85 °C and the slowdown after 150 s of its ramp
            2700,
            straggler(0, 3, 1350, 2700, 1410.0 / 1980)),
        new Case("demo memory-leak", "staircase", Set.of(), every, 3600, 4800, leak(3600, 2800)),
        new Case(
            "demo network-saturation",
            "throughput_drop",
            Set.of(),
            every,
            3600,
            6600,
            network(3600, 6600)),
        new Case(
            "demo loss-rebound",
            "lr_rewarmup",
            Set.of("spike"),
            every,
            4200,
            5400,
            rewarm(4200, 1.2)),
        new Case(
            "demo hung-rank",
            "hung_rank",
            Set.of("stall"),
            every,
            6900,
            8100,
            hang(1, 2, 6900, 8100)));
  }

  private static List<Case> variations(Random random, int v) {
    long every = new long[] {5, 15, 20, 10}[v % 4];
    List<Case> cases = new ArrayList<>();
    long onset = every * ((3600 + random.nextInt(5400)) / every);
    cases.add(
        new Case("nan v" + v, "nan", Set.of(), every, onset, onset + 300, nan(onset, onset + 300)));
    cases.add(
        new Case(
            "spike v" + v,
            "spike",
            Set.of(),
            every,
            onset,
            onset + every,
            spike(onset, 0.3 + random.nextDouble())));
    long length = 600 + random.nextInt(1800);
    cases.add(
        new Case(
            "hung v" + v,
            "hung_rank",
            Set.of("stall"),
            every,
            onset,
            onset + length,
            hang(random.nextInt(2), random.nextInt(4), onset, onset + length)));
    cases.add(
        new Case(
            "straggler v" + v,
            "straggler",
            Set.of(),
            every,
            onset,
            onset + 3600,
            straggler(
                random.nextInt(2),
                random.nextInt(4),
                onset,
                onset + 3600,
                0.6 + 0.2 * random.nextDouble())));
    cases.add(
        new Case(
            "starvation v" + v,
            "starvation",
            Set.of("throughput_drop"),
            every,
            onset,
            onset + length,
            starve(onset, onset + length, 0.3 + 0.2 * random.nextDouble())));
    cases.add(
        new Case(
            "network v" + v,
            "throughput_drop",
            Set.of(),
            every,
            onset,
            onset + 3000,
            network(onset, onset + 3000)));
    // The leak begins at an epoch boundary (1,200 s apart): its onset is that boundary.
    long boundary = 1200 * (onset / 1200 + 1);
    cases.add(
        new Case(
            "leak v" + v,
            "staircase",
            Set.of(),
            every,
            boundary,
            HOURS_4,
            leak(boundary, 800 + 2400 * random.nextDouble())));
    cases.add(
        new Case(
            "rewarm v" + v,
            "lr_rewarmup",
            Set.of("spike"),
            every,
            onset,
            onset + 1800,
            rewarm(onset, 0.3 + 0.9 * random.nextDouble())));
    return cases;
  }

  private static boolean during(long s, long from, long to) {
    return s >= from && s < to;
  }

  private static SimulatedRun.Faults nan(long from, long to) {
    return new SimulatedRun.Faults() {
      @Override
      double loss(int rank, long s, double healthy) {
        return during(s, from, to) ? Double.NaN : healthy;
      }
    };
  }

  private static SimulatedRun.Faults spike(long at, double size) {
    return new SimulatedRun.Faults() {
      @Override
      double loss(int rank, long s, double healthy) {
        return s == at ? healthy + size : healthy;
      }
    };
  }

  private static SimulatedRun.Faults hang(int node, int gpu, long from, long to) {
    return new SimulatedRun.Faults() {
      @Override
      double pace(long s) {
        return during(s, from, to) ? 0 : 1;
      }

      @Override
      double util(int n, int g, long s, double healthy) {
        return during(s, from, to) ? (n == node && g == gpu ? 0 : 100) : healthy;
      }

      @Override
      double power(int n, int g, long s, double healthy) {
        return during(s, from, to) ? (n == node && g == gpu ? 96 : 285) : healthy;
      }
    };
  }

  private static SimulatedRun.Faults straggler(
      int node, int gpu, long from, long to, double clockFactor) {
    return new SimulatedRun.Faults() {
      @Override
      double clock(int n, int g, long s, double healthy) {
        return n == node && g == gpu && during(s, from, to) ? healthy * clockFactor : healthy;
      }
    };
  }

  private static SimulatedRun.Faults starve(long from, long to, double pace) {
    return new SimulatedRun.Faults() {
      @Override
      double pace(long s) {
        return during(s, from, to) ? pace : 1;
      }

      @Override
      double util(int node, int gpu, long s, double healthy) {
        return during(s, from, to) ? healthy * pace : healthy;
      }

      @Override
      double cpuBusy(int node, long s, double healthy) {
        return during(s, from, to) ? 0.95 : healthy;
      }
    };
  }

  private static SimulatedRun.Faults network(long from, long to) {
    return new SimulatedRun.Faults() {
      boolean saturated(long s) {
        return during(s, from, to) && (s - from) % 300 < 240;
      }

      @Override
      double pace(long s) {
        return saturated(s) ? 0.35 : 1;
      }

      @Override
      double util(int node, int gpu, long s, double healthy) {
        return saturated(s) ? healthy * 0.48 : healthy;
      }

      @Override
      double receiveRate(int node, long s, double healthy) {
        return saturated(s) && node == 1 ? 1.24e9 : healthy;
      }
    };
  }

  private static SimulatedRun.Faults leak(long from, double perEpoch) {
    long firstEpoch =
        Math.round(from * SimulatedRun.STEPS_PER_SECOND / SimulatedRun.STEPS_PER_EPOCH);
    return new SimulatedRun.Faults() {
      @Override
      double extraMemory(int rank, long s, long epoch) {
        return epoch >= firstEpoch ? perEpoch * (epoch - firstEpoch + 1) : 0;
      }
    };
  }

  private static SimulatedRun.Faults rewarm(long from, double rebound) {
    long at = Math.round(from * SimulatedRun.STEPS_PER_SECOND);
    return new SimulatedRun.Faults() {
      @Override
      double learningRate(long step, double healthy) {
        if (step < at) {
          return 3e-4 * Math.max(0.05, 1 - step / (double) at);
        }
        long s = step - at;
        return s < 200 ? 3e-4 * (s + 1) / 200 : 3e-4 * Math.max(0.05, 1 - (s - 200) / 3000.0);
      }

      @Override
      double loss(int rank, long s, double healthy) {
        long step = Math.round(s * SimulatedRun.STEPS_PER_SECOND);
        return step < at ? healthy : healthy + rebound * (1 - Math.exp(-(step - at) / 100.0));
      }
    };
  }

  // --- running them -----------------------------------------------------------------------

  private static Outcome run(Path dir, Case c) throws IOException {
    try (TrainingStore store = new TrainingStore(dir)) {
      new SimulatedRun("bench", 2, 4, c.every(), HOURS_4, c.name().hashCode(), c.faults())
          .write(store);
      RunCatalog catalog =
          new RunCatalog(
              store.tsdb,
              new ManualClock(TrainingStore.T0 + HOURS_4 * 1000),
              RunHParams.NONE,
              RunCatalogOptions.DEFAULT);
      List<RunEvent> all = events(catalog, HOURS_4);
      Double delay = null;
      long latest = Math.min(HOURS_4, c.end() + 1800);
      if (detected(events(catalog, latest), c)) {
        long lo = c.onset();
        long hi = latest;
        while (hi - lo > c.every()) {
          long mid = c.every() * ((lo + hi) / 2 / c.every());
          if (mid <= lo) {
            break;
          }
          if (detected(events(catalog, mid), c)) {
            hi = mid;
          } else {
            lo = mid;
          }
        }
        delay = (double) (hi - c.onset());
      }
      return new Outcome(c, delay, all);
    }
  }

  private static List<RunEvent> events(RunCatalog catalog, long endSeconds) {
    return catalog
        .events("bench", TrainingStore.T0, TrainingStore.T0 + endSeconds * 1000)
        .orElseThrow();
  }

  /** An event of the case's kind that begins within its incident (a scrape's slack each side). */
  private static boolean detected(List<RunEvent> events, Case c) {
    return events.stream().anyMatch(e -> e.kind().equals(c.kind()) && explains(e, c));
  }

  private static boolean explains(RunEvent e, Case c) {
    long t = (e.timeMs() - TrainingStore.T0) / 1000;
    return t >= c.onset() - 2 * c.every() && t <= c.end() + 2 * c.every();
  }

  private static List<RunEvent> healthy(Path dir, int seed) throws IOException {
    long every = new long[] {15, 5, 20, 10}[seed % 4];
    Random random = new Random(seed);
    long restartAt = every * ((7200 + random.nextInt(10800)) / every);
    long gapAt = every * ((3600 + random.nextInt(14400)) / every);
    SimulatedRun.Faults faults =
        new SimulatedRun.Faults() {
          final Random scrapes = new Random(seed * 31L);

          @Override
          boolean disturbed(String what, long s) {
            return switch (what) {
              case "rank", "gpu", "host" ->
                  during(s, gapAt, gapAt + 600) || scrapes.nextDouble() < 0.03;
              case "stale" -> s == gapAt - every;
              case "cpu_reset" -> s == gapAt + 600;
              default -> false;
            };
          }

          @Override
          long restartTo(long s) {
            return seed % 2 == 0 && s == restartAt ? (long) (restartAt * 0.4) : -1;
          }
        };
    try (TrainingStore store = new TrainingStore(dir)) {
      new SimulatedRun("bench", 2, 4, every, HOURS_6, 1000 + seed, faults).write(store);
      RunCatalog catalog =
          new RunCatalog(
              store.tsdb,
              new ManualClock(TrainingStore.T0 + HOURS_6 * 1000),
              RunHParams.NONE,
              RunCatalogOptions.DEFAULT);
      return events(catalog, HOURS_6);
    }
  }

  // --- the table --------------------------------------------------------------------------

  private static String report(
      List<Outcome> outcomes, Map<String, Integer> falseOnHealthy, int healthyRuns) {
    StringBuilder out = new StringBuilder();
    out.append(
            "| detector | cases | recall | precision | delay median (s) | delay max (s) |"
                + " false events on ")
        .append(healthyRuns)
        .append(" healthy 6 h runs |\n");
    out.append("|---|---|---|---|---|---|---|\n");
    Set<String> kinds = new java.util.TreeSet<>();
    outcomes.forEach(o -> kinds.add(o.c().kind()));
    for (String kind : kinds) {
      int cases = 0;
      int found = 0;
      int truePositives = 0;
      int falsePositives = 0;
      List<Double> delays = new ArrayList<>();
      for (Outcome o : outcomes) {
        if (o.c().kind().equals(kind)) {
          cases++;
          if (o.delaySeconds() != null) {
            found++;
            delays.add(o.delaySeconds());
          }
        }
        for (RunEvent e : o.events()) {
          if (!e.kind().equals(kind)) {
            continue;
          }
          boolean expected = o.c().kind().equals(kind) || o.c().allowed().contains(kind);
          if (expected && explains(e, o.c())) {
            truePositives++;
          } else {
            falsePositives++;
          }
        }
      }
      delays.sort(Double::compare);
      out.append(
          String.format(
              Locale.ROOT,
              "| `%s` | %d | %d/%d | %s | %s | %s | %d |\n",
              kind,
              cases,
              found,
              cases,
              truePositives + falsePositives == 0
                  ? "–"
                  : String.format(
                      Locale.ROOT, "%d/%d", truePositives, truePositives + falsePositives),
              delays.isEmpty() ? "–" : fmt(delays.get(delays.size() / 2)),
              delays.isEmpty() ? "–" : fmt(delays.get(delays.size() - 1)),
              falseOnHealthy.getOrDefault(kind, 0)));
    }
    out.append("\nPer case (delay from the true onset to the first range end that shows it):\n\n");
    out.append(
        "| case | scrape (s) | expected | delay (s) | other events |\n|---|---|---|---|---|\n");
    for (Outcome o : outcomes) {
      List<String> others =
          o.events().stream()
              .map(RunEvent::kind)
              .filter(k -> !Set.of("epoch", "restart").contains(k) && !k.equals(o.c().kind()))
              .distinct()
              .toList();
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | `%s` | %s | %s |\n",
              o.c().name(),
              o.c().every(),
              o.c().kind(),
              o.delaySeconds() == null ? "missed" : fmt(o.delaySeconds()),
              others.isEmpty() ? "" : String.join(", ", others)));
    }
    if (!falseOnHealthy.isEmpty()) {
      out.append("\nFalse events on healthy runs: ").append(falseOnHealthy).append('\n');
    }
    return out.toString();
  }

  private static String fmt(double seconds) {
    return String.format(Locale.ROOT, "%.0f", seconds);
  }
}
