package io.flightdeck.tensorboard;

import java.nio.file.Path;

/**
 * What the threads that read a logdir for an import hand the importing thread, each file's in file
 * order: decoded points (when another thread stores them), damage, the end of each file, the end of
 * all runs.
 */
sealed interface ImportItem {
  /** Points of one run, in file order, for the importing thread to store. */
  record Points(PointBatch batch) implements ImportItem {}

  /** A damaged record, reported and counted by the importing thread. */
  record Damage(Corruption corruption) implements ImportItem {}

  /**
   * A file was read to its end: {@code progress} says how far, or {@code failure} why it could not
   * be read (then progress is null). {@code lastOfRun} marks the run's last file.
   */
  record FileDone(Path file, ReadProgress progress, EventFileException failure, boolean lastOfRun)
      implements ImportItem {
    /** Reads {@code file} to its end into {@code listener}, through a run's {@code decoder}. */
    static FileDone read(
        Path file, EventDecoder decoder, EventListener listener, boolean lastOfRun) {
      try {
        return new FileDone(
            file, new EventFileReader(file, decoder).poll(listener), null, lastOfRun);
      } catch (EventFileException e) {
        return new FileDone(file, null, e, lastOfRun);
      }
    }
  }

  /** Every run was read, and stored unless points were handed over. */
  record End() implements ImportItem {}

  /**
   * A reading thread failed unexpectedly (an error such as running out of memory included, so the
   * importing thread never waits for a thread that is gone); the importing thread rethrows.
   */
  record Crashed(Throwable cause) implements ImportItem {
    /** Throws the cause as it is: every cause is unchecked. */
    RuntimeException rethrow() {
      if (cause instanceof Error error) {
        throw error;
      }
      throw (RuntimeException) cause;
    }
  }
}
