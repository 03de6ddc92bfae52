package io.flightdeck.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.flightdeck.model.Labels;
import io.flightdeck.storage.Appender;
import io.flightdeck.testkit.ManualClock;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A catalog of 200 runs on 100 hosts of 8 GPUs, two hours at 15 s: every run is listed with its
 * GPUs and judged. The time taken is printed for the record, not asserted.
 */
class RunCatalogScaleTest {
  private static final int RUNS = 200;
  private static final long HOURS_2 = 7200;

  @Test
  void twoHundredRunsAreListedAndJudged(@TempDir Path dir) throws Exception {
    try (TrainingStore store = new TrainingStore(dir)) {
      Appender app = store.tsdb.appender();
      for (long s = 0; s <= HOURS_2; s += 15) {
        long t = TrainingStore.T0 + s * 1000;
        for (int run = 0; run < RUNS; run++) {
          String host = "node-" + (run / 2);
          for (int rank = 0; rank < 2; rank++) {
            String[] id = {
              "run",
              "run-" + run,
              "instance",
              host + ":80" + (run % 2) + rank,
              "local_rank",
              Integer.toString((run % 2) * 2 + rank)
            };
            app.append(
                0, Labels.of(TrainingScenario.concat(id, "__name__", "llm_train_step")), t, s);
            app.append(
                0, Labels.of(TrainingScenario.concat(id, "__name__", "llm_train_loss")), t, 1.0);
          }
        }
        for (int node = 0; node < RUNS / 2; node++) {
          for (int gpu = 0; gpu < 8; gpu++) {
            app.append(
                0,
                Labels.of(
                    "__name__",
                    "DCGM_FI_DEV_GPU_TEMP",
                    "Hostname",
                    "node-" + node,
                    "gpu",
                    "" + gpu,
                    "UUID",
                    "GPU-" + node + "-" + gpu),
                t,
                60);
          }
        }
      }
      app.commit();
      RunCatalog catalog =
          new RunCatalog(
              store.tsdb,
              new ManualClock(TrainingStore.T0 + HOURS_2 * 1000),
              RunHParams.NONE,
              RunCatalogOptions.DEFAULT);
      catalog.runs(null); // warm up
      long began = System.nanoTime();
      List<RunSummary> runs = catalog.runs(null);
      long tookMs = (System.nanoTime() - began) / 1_000_000;
      System.out.println("catalog of " + runs.size() + " runs answered in " + tookMs + " ms");
      assertEquals(RUNS, runs.size());
      for (RunSummary run : runs) {
        assertEquals(RunStatus.RUNNING, run.status(), run.run());
        assertEquals(2, run.gpus().size(), run.run());
        assertEquals(1.0, run.stepsPerSecond(), 1e-9);
      }
      assertTrue(runs.stream().allMatch(r -> r.step() == HOURS_2));
    }
  }
}
