package io.flightdeck.tensorboard;

import io.flightdeck.model.Clock;
import io.flightdeck.storage.Appendable;
import io.flightdeck.storage.StorageUnavailableException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Tails one logdir while jobs write it: every poll finds new runs and event files and reads what
 * was appended since the last poll, in run and file name order, into a {@link TensorBoardIngester}.
 * Behaviour and its limits are described in {@code tensorboard/docs/tailing.md}.
 *
 * <p>Each file keeps its read offset. A record not yet fully written waits for the next poll and is
 * never reported; damage is reported once (file and offset) and skipped; a file that cannot be read
 * is reported once until it reads again, and never holds up other files or runs. Nothing is kept
 * across restarts: a new watcher reads the logdir from the start, which writes the same samples
 * again (no-ops for the storage, skipped by the side stores).
 *
 * <p>Lifecycle: {@link #start()} once, {@link #close()} to stop; the poll thread is a daemon named
 * {@code tensorboard-watcher <logdir>}. Problems go to the given consumer on that thread. The
 * storage and the side stores belong to the caller, who closes them after this watcher.
 */
public final class LogdirWatcher implements AutoCloseable {
  /** How long {@link #close()} waits for a poll in progress, which stops between files. */
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

  private final LogdirWatcherOptions options;
  private final Path root;
  private final Clock clock;
  private final Consumer<String> problems;
  private final Appendable storage;
  private final SideStores stores;
  private TensorBoardIngester ingester;
  private Map<String, WatchedRun> runs = new HashMap<>();

  /** Read from other threads by {@link #progress()}; written only by the poll. */
  private final Map<Path, FileState> fileStates = new ConcurrentHashMap<>();

  private final CountDownLatch closing = new CountDownLatch(1);
  private volatile Thread thread;
  private long files;
  private long records;
  private long errors;
  private long earlierPoints;
  private long earlierSkipped;
  private long earlierRejected;
  private String storageFailure;
  private volatile LogdirWatcherStats stats = new LogdirWatcherStats(0, 0, 0, 0, 0, 0, 0);

  /**
   * @param stores where texts, images and hparams go
   * @param problems hears each damaged record and failing file once, on the poll thread
   */
  public LogdirWatcher(
      LogdirWatcherOptions options,
      Appendable storage,
      SideStores stores,
      Clock clock,
      Consumer<String> problems) {
    this.options = options;
    this.root = Path.of(options.logdir());
    this.clock = clock;
    this.problems = problems;
    this.storage = storage;
    this.stores = stores;
    this.ingester = newIngester();
  }

  /** Starts polling on a new thread, the first poll at once. */
  public synchronized void start() {
    if (thread != null) {
      throw new IllegalStateException("already started [logdir=" + options.logdir() + "]");
    }
    thread =
        Thread.ofPlatform()
            .name("tensorboard-watcher " + options.logdir())
            .daemon()
            .start(this::loop);
  }

  /** The counters as of the end of the last poll; callable from any thread. */
  public LogdirWatcherStats stats() {
    return stats;
  }

  /**
   * Every event file found so far with how much of it is read, ordered by run and file; callable
   * from any thread while a poll runs, so a long first import shows its progress file by file.
   */
  public List<EventFileProgress> progress() {
    List<EventFileProgress> out = new ArrayList<>();
    for (Map.Entry<Path, FileState> e : fileStates.entrySet()) {
      FileState f = e.getValue();
      out.add(
          new EventFileProgress(
              f.run, e.getKey().toString(), f.bytesRead, f.bytesTotal, f.reading, f.error));
    }
    out.sort(Comparator.comparing(EventFileProgress::run).thenComparing(EventFileProgress::file));
    return out;
  }

  /**
   * Stops polling: a poll in progress ends after its current file and commits. Waits for it at most
   * {@link #STOP_TIMEOUT}.
   */
  @Override
  public void close() {
    closing.countDown();
    // Not under the monitor: a poll in progress holds it.
    Thread t = thread;
    if (t == null) {
      return;
    }
    try {
      if (!t.join(STOP_TIMEOUT)) {
        problems.accept("watcher of " + options.logdir() + " did not stop within " + STOP_TIMEOUT);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void loop() {
    long interval = options.pollInterval().toMillis();
    while (closing.getCount() > 0) {
      long started = clock.millis();
      try {
        pollOnce();
      } catch (RuntimeException e) {
        // Never let one bad poll end tailing; the next poll tries again.
        problems.accept("poll of " + options.logdir() + " failed: " + e);
      }
      long wait = Math.clamp(interval - (clock.millis() - started), 0, interval);
      try {
        if (closing.await(wait, TimeUnit.MILLISECONDS)) {
          return;
        }
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** One pass over the logdir; the poll thread calls it, tests call it directly. */
  synchronized void pollOnce() {
    try {
      polling:
      for (TensorBoardRun run : RunDiscovery.discover(root)) {
        WatchedRun watched = runs.computeIfAbsent(run.name(), WatchedRun::new);
        ingester.discovered(run);
        for (Path file : run.eventFiles()) {
          if (closing.getCount() == 0) {
            break polling;
          }
          poll(watched, file);
        }
      }
      ingester.commit();
      storageFailure = null;
    } catch (StorageUnavailableException | StoreFileException e) {
      startOver(e);
    }
    stats =
        new LogdirWatcherStats(
            runs.size(),
            files,
            records,
            earlierPoints + points(ingester),
            earlierSkipped + ingester.skipped(),
            errors + earlierRejected + ingester.rejectedSamples(),
            clock.millis());
  }

  /**
   * The storage refused what this poll read, and readers cannot step back. Forgetting every offset
   * makes the next poll read the logdir from the start as after a restart, which writes the same
   * samples again: nothing is lost, and what was stored before is met as no-op duplicates.
   */
  private void startOver(RuntimeException e) {
    String message = "storage failed, reading " + options.logdir() + " again: " + e.getMessage();
    if (!message.equals(storageFailure)) {
      errors++;
      problems.accept(message);
    }
    storageFailure = message;
    try {
      ingester.rollback();
    } catch (RuntimeException ignored) {
      // The batch is being thrown away anyway.
    }
    earlierPoints += points(ingester);
    earlierSkipped += ingester.skipped();
    earlierRejected += ingester.rejectedSamples();
    ingester = newIngester();
    runs = new HashMap<>();
    fileStates.clear();
    files = 0;
  }

  private TensorBoardIngester newIngester() {
    return new TensorBoardIngester(storage, stores, options.logdir(), options.batchSize());
  }

  private static long points(TensorBoardIngester ingester) {
    return ingester.scalarPoints()
        + ingester.histogramPoints()
        + ingester.textPoints()
        + ingester.imagePoints()
        + ingester.hparamsPoints();
  }

  private void poll(WatchedRun run, Path path) {
    WatchedFile file = run.files.get(path);
    if (file == null) {
      file = new WatchedFile(new EventFileReader(path, run.decoder));
      run.files.put(path, file);
      files++;
    }
    if (file.dead) {
      return;
    }
    FileState state = fileStates.computeIfAbsent(path, p -> new FileState(run.name));
    state.reading = true;
    try {
      state.bytesTotal = Files.size(path);
      if (state.bytesTotal < file.offset) {
        // Replaced by a shorter file: offsets no longer mean anything, and re-reading would
        // store its points a second time at shifted timestamps.
        file.dead = true;
        fail(file, "event file shrank below read offset " + file.offset + " [file=" + path + "]");
        return;
      }
      ReadProgress progress = file.reader.poll(run);
      file.offset = progress.offset();
      records += progress.records();
      file.failure = null;
    } catch (IOException e) {
      fail(file, "cannot read event file [file=" + path + "]: " + e);
    } catch (StorageUnavailableException | StoreFileException e) {
      throw e;
    } catch (RuntimeException e) {
      fail(file, e.getMessage());
    } finally {
      state.bytesRead = file.offset;
      state.error = file.failure;
      state.reading = false;
    }
  }

  private void fail(WatchedFile file, String message) {
    if (!Objects.equals(message, file.failure)) {
      errors++;
      problems.accept(message);
    }
    file.failure = message;
  }

  /** A run's files share one decoder: a tag's plugin metadata comes only with its first value. */
  private final class WatchedRun implements EventListener {
    final String name;
    final EventDecoder decoder = new EventDecoder();
    final Map<Path, WatchedFile> files = new HashMap<>();

    WatchedRun(String name) {
      this.name = name;
    }

    @Override
    public void point(SummaryPoint point) {
      ingester.write(name, point);
    }

    @Override
    public void scalar(String tag, long step, double wallTimeSeconds, double value) {
      ingester.writeScalar(name, tag, step, TensorBoardIngester.wallMillis(wallTimeSeconds), value);
    }

    @Override
    public void histogram(HistogramFields histogram) {
      ingester.writeHistogram(name, histogram);
    }

    @Override
    public void corruption(Corruption corruption) {
      errors++;
      problems.accept(corruption.toString());
    }
  }

  /** One file's progress as other threads see it. */
  private static final class FileState {
    final String run;
    volatile long bytesRead;
    volatile long bytesTotal;
    volatile boolean reading;
    volatile String error;

    FileState(String run) {
      this.run = run;
    }
  }

  private static final class WatchedFile {
    final EventFileReader reader;
    long offset;
    boolean dead;
    String failure;

    WatchedFile(EventFileReader reader) {
      this.reader = reader;
    }
  }
}
