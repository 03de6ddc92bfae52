package io.flightdeck.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The LoRA runs' TensorBoard logdir, written live: one sub-directory (run) per {@link SiblingRun},
 * each step at the wall time its simulated second comes. Event files of an earlier demo in the same
 * folder are removed first, so a run's steps start again from 0 in one file. Not thread-safe: one
 * writer thread calls {@link #writeUpTo}.
 */
final class TensorBoardRuns implements AutoCloseable {
  private record Run(SiblingRun run, EventFileWriter events, int[] written) {}

  private final DemoClock clock;
  private final List<Run> runs = new ArrayList<>();

  TensorBoardRuns(Path logdir, long seed, long durationSeconds, DemoClock clock)
      throws IOException {
    this.clock = clock;
    add(logdir.resolve(DemoScript.BASELINE_RUN), new SiblingRun(seed, durationSeconds, false));
    add(logdir.resolve(DemoScript.SIBLING_RUN), new SiblingRun(seed, durationSeconds, true));
  }

  private void add(Path runDir, SiblingRun run) throws IOException {
    deleteEventFiles(runDir);
    EventFileWriter events = new EventFileWriter(runDir, clock.wallTimeOf(0));
    events.hparams(clock.wallTimeOf(0), run.hparams());
    runs.add(new Run(run, events, new int[] {-1}));
  }

  /** Writes every run's steps up to simulated second {@code simSeconds}. */
  void writeUpTo(double simSeconds) throws IOException {
    for (Run r : runs) {
      int target = r.run().stepAt(simSeconds);
      while (r.written()[0] < target) {
        int step = ++r.written()[0];
        r.run().write(r.events(), step, clock.wallTimeOf(step * SiblingRun.STEP_SECONDS));
      }
    }
  }

  private static void deleteEventFiles(Path runDir) throws IOException {
    if (!Files.isDirectory(runDir)) {
      return;
    }
    try (Stream<Path> files = Files.list(runDir)) {
      for (Path file :
          files
              .filter(f -> f.getFileName().toString().startsWith("events.out.tfevents."))
              .toList()) {
        Files.delete(file);
      }
    }
  }

  @Override
  public void close() throws IOException {
    for (Run r : runs) {
      r.events().close();
    }
  }
}
