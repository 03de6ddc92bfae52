package io.flightdeck.training;

import io.flightdeck.model.Labels;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.Queryable;
import io.flightdeck.testkit.ManualClock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * ETA accuracy of one run replayed into a store: at fractions of its true duration the catalog is
 * asked for the run (as the runs table does, with "now" at that moment and only the data up to it
 * in view) and the end it predicts, now + ETA, is compared with the true end. Also writes generated
 * runs: ranks' step gauges sampled at a scrape interval from a pace, with stalls and restarts.
 */
final class EtaReplay {
  static final double[] FRACTIONS = {0.10, 0.25, 0.50};

  private EtaReplay() {}

  /**
   * What the catalog predicted at one fraction of the run.
   *
   * @param errorOfDuration (predicted end − true end) ÷ true duration, null when no ETA was given
   * @param inBand whether the true end lies in the p10–p90 band
   * @param status the run's status then
   */
  record Prediction(double fraction, Double errorOfDuration, boolean inBand, String status) {}

  /** One replayed run and its predictions. */
  record Outcome(String name, String source, double hours, long steps, List<Prediction> at) {}

  /**
   * The catalog's predictions for {@code run}, which began at {@code startMs} and ended at {@code
   * endMs}.
   */
  static Outcome measure(
      Queryable store,
      String name,
      String source,
      String run,
      long startMs,
      long endMs,
      long steps) {
    List<Prediction> at = new ArrayList<>();
    for (double f : FRACTIONS) {
      long now = startMs + Math.round(f * (endMs - startMs));
      RunCatalog catalog =
          new RunCatalog(store, new ManualClock(now), RunHParams.NONE, RunCatalogOptions.DEFAULT);
      RunSummary summary = catalog.run(run).orElse(null);
      if (summary == null) {
        at.add(new Prediction(f, null, false, "unknown"));
        continue;
      }
      Double error =
          summary.etaSeconds() == null
              ? null
              : (now + summary.etaSeconds() * 1000 - endMs) / (double) (endMs - startMs);
      boolean inBand =
          summary.etaLowSeconds() != null
              && summary.etaHighSeconds() != null
              && now + summary.etaLowSeconds() * 1000 <= endMs
              && endMs <= now + summary.etaHighSeconds() * 1000;
      at.add(new Prediction(f, error, inBand, summary.status().wireName()));
    }
    return new Outcome(name, source, (endMs - startMs) / 3_600_000.0, steps, at);
  }

  /**
   * A generated run: what happens at each second. {@code pace} is steps per second (0 stalls the
   * job but its gauges still report); a restart at a second resumes from a checkpoint after the job
   * was away (no samples) for a while.
   */
  static class Shape {
    final long maxSteps;
    final long everySeconds;

    Shape(long maxSteps, long everySeconds) {
      this.maxSteps = maxSteps;
      this.everySeconds = everySeconds;
    }

    double pace(long s) {
      return 1;
    }

    /**
     * Seconds the job is gone from {@code s} on, before it resumes from a checkpoint; 0 for none.
     */
    long downFrom(long s) {
      return 0;
    }

    /** The step a resumed job starts from, given the step it reached. */
    long resumeFrom(long step) {
      return step;
    }
  }

  /**
   * Writes {@code ranks} step gauges and the max-steps gauge of a run from {@code t0} until its
   * step reaches the max (and a minute more, as the job's last scrapes), and answers the true end:
   * the first sample at the max step.
   */
  static long write(
      io.flightdeck.storage.Appendable store, String run, int ranks, long t0, Shape shape) {
    Appender app = store.appender();
    Map<Labels, Long> refs = new LinkedHashMap<>();
    double progress = 0;
    long end = -1;
    long s = 0;
    long every = shape.everySeconds;
    while (end < 0 || s <= (end - t0) / 1000 + 60) {
      long down = shape.downFrom(s);
      if (down > 0 && end < 0) {
        // The job dies: no sample until it comes back from its last checkpoint.
        s += down;
        progress = shape.resumeFrom((long) Math.floor(progress));
      }
      long t = t0 + s * 1000;
      double step = Math.min(shape.maxSteps, Math.floor(progress));
      for (int r = 0; r < ranks; r++) {
        Labels id =
            Labels.of(
                "__name__",
                "llm_train_step",
                "run",
                run,
                "instance",
                "h:" + (8000 + r),
                "rank",
                "" + r);
        refs.put(id, app.append(refs.getOrDefault(id, 0L), id, t, step));
        Labels max =
            Labels.of(
                "__name__",
                "llm_train_max_steps",
                "run",
                run,
                "instance",
                "h:" + (8000 + r),
                "rank",
                "" + r);
        refs.put(max, app.append(refs.getOrDefault(max, 0L), max, t, shape.maxSteps));
      }
      if (step >= shape.maxSteps && end < 0) {
        end = t;
      }
      for (long k = 0; k < every; k++) {
        progress += Math.max(0, shape.pace(s + k));
      }
      s += every;
    }
    app.commit();
    return end;
  }

  /** A pace with steady per-step jitter (±{@code spread}), the same for a seed. */
  static double jitter(Random random, double spread) {
    return 1 + spread * (2 * random.nextDouble() - 1);
  }
}
