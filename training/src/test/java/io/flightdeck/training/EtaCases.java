package io.flightdeck.training;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.Series;
import io.flightdeck.storage.SeriesSet;
import io.flightdeck.tensorboard.ImportListener;
import io.flightdeck.tensorboard.ImportProgress;
import io.flightdeck.tensorboard.TensorBoardImport;
import io.flightdeck.testkit.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The runs whose ETA is measured: the demo's two run shapes (its 16-rank job with the network
 * slowdown, the hang and, where the demo's job dies, a restart from its last checkpoint instead;
 * its TensorBoard sibling at a steady 4 s a step), generated runs (steady with jitter, slow phases,
 * stalls, restarts, and all of these at once) and real TensorBoard logdirs replayed through the
 * tensorboard module. {@link EtaBenchmark} measures all; {@link EtaAccuracyTest} a few. The demo's
 * own runs, live through a server, are measured by the app's {@code DemoEndToEndTest}: there its
 * main job crashes and only the TensorBoard runs end.
 */
final class EtaCases {
  /** The TensorBoard logdirs of shared/fixtures/tfevents (see its PROVENANCE.md files). */
  static final Path FIXTURES = SharedFixtures.fixture("tfevents");

  private static final long T0 = TrainingStore.T0;
  private static final int RANKS = 2;

  private EtaCases() {}

  /**
   * The demo's main job (DemoScript, ClusterModel) run to its 3,000 steps of 6 s. The demo's own
   * job dies of its XID 79 at 2:20 and never ends; this one is given an end (a restart 10 minutes
   * later), so it is a stress case of losses that come after 10%, not one of the demo's runs.
   */
  static EtaReplay.Outcome demoMainJob(TrainingStore store) {
    EtaReplay.Shape shape =
        new EtaReplay.Shape(3000, 20) {
          @Override
          double pace(long s) {
            if (s >= 115 * 60 && s < 135 * 60) {
              return 0; // the hung rank
            }
            boolean saturated = s >= 60 * 60 && s < 110 * 60 && (s - 3600) % 300 < 240;
            return (saturated ? 0.35 : 1) / 6.0;
          }

          @Override
          long downFrom(long s) {
            return s == 140 * 60 ? 600 : 0; // the XID 79; back in 10 minutes
          }

          @Override
          long resumeFrom(long step) {
            return step / 100 * 100; // a checkpoint every epoch of 100 steps
          }
        };
    return generated(
        store,
        "main job given an end (slowdown, hang, a restart where the demo's job dies)",
        "demo shape",
        shape);
  }

  /** The demo's TensorBoard sibling: 4 s a step for its 150 minutes, logged every 2 steps. */
  static EtaReplay.Outcome demoSibling(TrainingStore store) {
    EtaReplay.Shape shape =
        new EtaReplay.Shape(2250, 8) {
          @Override
          double pace(long s) {
            return 0.25;
          }
        };
    return generated(store, "llama-7b-lora (steady)", "demo shape", shape);
  }

  /** Generated variations; {@code n} of each kind, seeded. */
  static List<EtaReplay.Outcome> generatedRuns(TrainingStore store, int n) {
    List<EtaReplay.Outcome> out = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(2026);
    for (int v = 0; v < n; v++) {
      long every = new long[] {5, 10, 15, 30}[v % 4];
      double rate = 0.2 + random.nextDouble() * 1.8; // steps per second
      long hours = 2 + random.nextInt(10);
      long max = Math.round(rate * hours * 3600);
      long seed = random.nextLong();
      out.add(generated(store, "steady ±20% v" + v, "generated", jittered(max, every, rate, seed)));
      long slowFrom = Math.round(hours * 3600 * (0.2 + 0.5 * random.nextDouble()));
      out.add(
          generated(
              store,
              "slow hour at 50% v" + v,
              "generated",
              new Jittered(max, every, rate, seed) {
                @Override
                double pace(long s) {
                  return super.pace(s) * (s >= slowFrom && s < slowFrom + 3600 ? 0.5 : 1);
                }
              }));
      long[] stalls = events(random, hours, 1 + random.nextInt(3));
      long stallLength = 300 + random.nextInt(1500);
      out.add(
          generated(
              store,
              stalls.length + " stalls of " + stallLength / 60 + " min v" + v,
              "generated",
              new Jittered(max, every, rate, seed) {
                @Override
                double pace(long s) {
                  for (long at : stalls) {
                    if (s >= at && s < at + stallLength) {
                      return 0;
                    }
                  }
                  return super.pace(s);
                }
              }));
      long[] crashes = events(random, hours, 1 + random.nextInt(3));
      long downtime = 120 + random.nextInt(480);
      long checkpointEvery = Math.max(50, Math.round(rate * 1800));
      out.add(
          generated(
              store,
              crashes.length + " restarts, " + downtime / 60 + " min down v" + v,
              "generated",
              new Jittered(max, every, rate, seed) {
                @Override
                long downFrom(long s) {
                  for (long at : crashes) {
                    if (s >= at && s < at + every) {
                      return downtime;
                    }
                  }
                  return 0;
                }

                @Override
                long resumeFrom(long step) {
                  return step / checkpointEvery * checkpointEvery;
                }
              }));
    }
    return out;
  }

  /**
   * Generated runs whose pace drifts at the start and then settles, as a trainer's does while a
   * replay buffer fills, a cache warms or sequence packing settles: {@code n} that slow down and
   * {@code n} that speed up, by 10–40% over a time constant of 3–15% of the run, with the same ±20%
   * jitter as the others; seeded apart from {@link #generatedRuns} so those stay as they are.
   */
  static List<EtaReplay.Outcome> driftingRuns(TrainingStore store, int n) {
    List<EtaReplay.Outcome> out = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(7919);
    for (int v = 0; v < 2 * n; v++) {
      boolean slowing = v < n;
      long every = new long[] {5, 10, 15, 30}[v % 4];
      double rate = 0.2 + random.nextDouble() * 1.8;
      long hours = 1 + random.nextInt(8);
      double change = 0.1 + 0.3 * random.nextDouble();
      double tau = hours * 3600 * (0.03 + 0.12 * random.nextDouble());
      long seed = random.nextLong();
      // The settled pace is `rate`; the start is faster (slowing) or slower (speeding up).
      double sign = slowing ? 1 : -1;
      double meanFactor = 1 + sign * change * tau / (hours * 3600.0);
      long max = Math.round(rate * hours * 3600 * meanFactor);
      String name =
          String.format(
              java.util.Locale.ROOT,
              "%s %.0f%% over %.0f min v%d",
              slowing ? "slowing" : "speeding up",
              100 * change,
              tau / 60,
              v);
      out.add(
          generated(
              store,
              name,
              "generated",
              new Jittered(max, every, rate, seed) {
                @Override
                double pace(long s) {
                  return super.pace(s) * (1 + sign * change * Math.exp(-s / tau));
                }
              }));
    }
    return out;
  }

  /** Times of {@code count} events spread over the run's middle 80%, in seconds. */
  private static long[] events(SplittableRandom random, long hours, int count) {
    long[] at = new long[count];
    for (int i = 0; i < count; i++) {
      at[i] = Math.round(hours * 3600 * (0.1 + 0.8 * random.nextDouble()));
    }
    return at;
  }

  private static EtaReplay.Shape jittered(long max, long every, double rate, long seed) {
    return new Jittered(max, every, rate, seed);
  }

  /** A steady pace with a ±20% jitter that changes every minute. */
  private static class Jittered extends EtaReplay.Shape {
    private final double rate;
    private final long seed;

    Jittered(long maxSteps, long everySeconds, double rate, long seed) {
      super(maxSteps, everySeconds);
      this.rate = rate;
      this.seed = seed;
    }

    @Override
    double pace(long s) {
      double u = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + s / 60).nextDouble();
      return rate * (1 + 0.2 * (2 * u - 1));
    }
  }

  private static int runs;

  private static EtaReplay.Outcome generated(
      TrainingStore store, String name, String source, EtaReplay.Shape shape) {
    String run = "run-" + runs++;
    // Each run in a day of its own, so runs never overlap in a catalog's view.
    long t0 = T0 + runs * 86_400_000L * 2;
    long end = EtaReplay.write(store.tsdb, run, RANKS, t0, shape);
    return EtaReplay.measure(store.tsdb, name, source, run, t0, end, shape.maxSteps);
  }

  /**
   * Every run of the TensorBoard fixtures that the catalog gives a step series (a train-loss tag),
   * replayed through the tensorboard module; the run's max steps is declared as its last step (as a
   * trainer's {@code max_steps} hparam would), and its true end is the time of that step.
   */
  static List<EtaReplay.Outcome> tensorBoardRuns(TrainingStore store) {
    if (!Files.isDirectory(FIXTURES)) {
      throw new IllegalStateException("no TensorBoard fixtures at " + FIXTURES.toAbsolutePath());
    }
    try (var logdirs = Files.list(FIXTURES)) {
      return tensorBoardRuns(
          store, logdirs.filter(Files::isDirectory).sorted().toArray(Path[]::new));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** As {@link #tensorBoardRuns(TrainingStore)} for the given logdirs. */
  static List<EtaReplay.Outcome> tensorBoardRuns(TrainingStore store, Path... logdirs) {
    List<EtaReplay.Outcome> out = new ArrayList<>();
    for (Path logdir : logdirs) {
      new TensorBoardImport(
              store.tsdb,
              1000,
              new ImportListener() {
                @Override
                public void progress(ImportProgress progress) {}

                @Override
                public void problem(String message) {}
              })
          .run(logdir.toString());
    }
    Map<String, Series> stepSeries = new TreeMap<>();
    Map<String, SeriesReads.Samples> steps = new TreeMap<>();
    try (Querier q = store.tsdb.querier(Long.MIN_VALUE / 4, Long.MAX_VALUE / 4)) {
      SeriesSet set =
          q.select(
              false,
              Matcher.equal(Labels.METRIC_NAME, "tensorboard_scalar_step"),
              Matcher.regex("tag", "(?:train[/_])?loss(?:_step|_epoch)?"));
      while (set.next()) {
        Series s = set.at();
        stepSeries.put(s.labels().get("run"), s);
        steps.put(
            s.labels().get("run"), SeriesReads.range(s, Long.MIN_VALUE / 4, Long.MAX_VALUE / 4));
      }
    }
    for (Map.Entry<String, SeriesReads.Samples> e : steps.entrySet()) {
      SeriesReads.Samples samples = e.getValue();
      if (samples.size() < 20) {
        continue; // too short to have a 10% point with a pace
      }
      Labels labels = stepSeries.get(e.getKey()).labels();
      double last = samples.values()[samples.size() - 1];
      long end = samples.times()[samples.size() - 1];
      long start = samples.times()[0];
      declareMaxSteps(store, labels, samples, last);
      out.add(
          EtaReplay.measure(
              store.tsdb,
              e.getKey(),
              "TensorBoard " + labels.get("logdir").replace(FIXTURES.toString() + "/", ""),
              e.getKey(),
              start,
              end,
              Math.round(last)));
    }
    return out;
  }

  /** A {@code train/max_steps} scalar beside the run's step, at each of its samples. */
  private static void declareMaxSteps(
      TrainingStore store, Labels stepLabels, SeriesReads.Samples samples, double maxSteps) {
    Labels max =
        stepLabels.toBuilder()
            .set(Labels.METRIC_NAME, "tensorboard_scalar")
            .set("tag", "train/max_steps")
            .build();
    Appender app = store.tsdb.appender();
    long ref = 0;
    for (long t : samples.times()) {
      ref = app.append(ref, max, t, maxSteps);
    }
    app.commit();
  }
}
