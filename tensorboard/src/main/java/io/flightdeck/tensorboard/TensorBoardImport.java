package io.flightdeck.tensorboard;

import io.flightdeck.storage.Appendable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * Imports every run of a logdir once through {@link TensorBoardIngester}s. With several workers and
 * runs of which none holds most of the bytes ({@link RunImportThreads#splitsWell}), {@link
 * RunImportThreads} read, decode and store whole runs on that many threads at once; otherwise a
 * {@link DecodingThread} reads and decodes while the calling thread stores. Damage is reported and
 * counted and the import goes on with the next record or file. A run's points are stored in file
 * order by one ingester, so every timestamp an ingester assigns is the same on each import of
 * unchanged files, which makes a re-import write identical samples.
 */
public final class TensorBoardImport {
  private final Appendable storage;
  private final SideStores stores;
  private final int batchSize;
  private final int workers;
  private final ImportListener listener;

  /** An import on one worker that counts texts, images and hparams without storing them. */
  public TensorBoardImport(Appendable storage, int batchSize, ImportListener listener) {
    this(storage, SideStores.NONE, batchSize, 1, listener);
  }

  /**
   * @param storage where the samples go; with several workers it must take appenders from several
   *     threads at once
   * @param stores where texts, images and hparams go, the stores of the logdir passed to {@link
   *     #run}
   * @param batchSize samples per commit
   * @param workers the most threads that store at once, one run each
   */
  public TensorBoardImport(
      Appendable storage, SideStores stores, int batchSize, int workers, ImportListener listener) {
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be positive, got " + workers);
    }
    this.storage = storage;
    this.stores = stores;
    this.batchSize = batchSize;
    this.workers = workers;
    this.listener = listener;
  }

  /**
   * @param logdir the logdir as the user gave it; it names the {@code logdir} label
   */
  public ImportSummary run(String logdir) {
    List<TensorBoardRun> runs = RunDiscovery.discover(Path.of(logdir));
    int threads =
        workers > 1 && RunImportThreads.splitsWell(runs) ? Math.min(workers, runs.size()) : 1;
    List<TensorBoardIngester> ingesters = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      TensorBoardIngester ingester = new TensorBoardIngester(storage, stores, logdir, batchSize);
      runs.forEach(ingester::discovered);
      ingesters.add(ingester);
    }
    Progress progress = new Progress(runs);
    try {
      if (ingesters.size() > 1) {
        try (RunImportThreads imports = new RunImportThreads(runs, ingesters)) {
          while (progress.follow(imports.next())) {}
        }
      } else {
        TensorBoardIngester ingester = ingesters.getFirst();
        // Decoding runs on a thread of its own; storing stays on this one, in the same order.
        try (DecodingThread decoded = new DecodingThread(runs)) {
          ImportItem item;
          while (progress.follow(item = decoded.next())) {
            if (item instanceof ImportItem.Points points) {
              points.batch().writeTo(ingester);
              decoded.recycle(points);
            }
          }
        }
        ingester.commit();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("the import was interrupted", e);
    }
    return new ImportSummary(
        runs.size(),
        sum(ingesters, TensorBoardIngester::scalarPoints),
        sum(ingesters, TensorBoardIngester::histogramPoints),
        sum(ingesters, TensorBoardIngester::textPoints),
        sum(ingesters, TensorBoardIngester::imagePoints),
        sum(ingesters, TensorBoardIngester::hparamsPoints),
        sum(ingesters, TensorBoardIngester::skipped),
        progress.problems + sum(ingesters, TensorBoardIngester::rejectedSamples));
  }

  private static long sum(
      List<TensorBoardIngester> ingesters, ToLongFunction<TensorBoardIngester> count) {
    return ingesters.stream().mapToLong(count).sum();
  }

  /** Reports damage and progress as the reading threads hand them over. */
  private final class Progress {
    private final int runsTotal;
    private final int filesTotal;
    private int runsDone;
    private int filesDone;
    private long records;
    private long bytes;
    long problems;

    Progress(List<TensorBoardRun> runs) {
      runsTotal = runs.size();
      filesTotal = runs.stream().mapToInt(r -> r.eventFiles().size()).sum();
    }

    /** Takes in one item; false once every run was read. */
    boolean follow(ImportItem item) {
      switch (item) {
        case ImportItem.Points points -> {}
        case ImportItem.Damage damage -> {
          problems++;
          listener.problem(damage.corruption().toString());
        }
        case ImportItem.FileDone done -> fileDone(done);
        case ImportItem.Crashed crashed -> throw crashed.rethrow();
        case ImportItem.End end -> {
          return false;
        }
      }
      return true;
    }

    private void fileDone(ImportItem.FileDone done) {
      if (done.failure() != null) {
        problems++;
        listener.problem(done.failure().getMessage());
      } else {
        ReadProgress read = done.progress();
        records += read.records();
        bytes += read.offset() + read.pendingBytes();
        if (read.incomplete()) {
          problems++;
          listener.problem(
              "truncated record at "
                  + done.file()
                  + ":"
                  + read.offset()
                  + " ("
                  + read.pendingBytes()
                  + " bytes)");
        }
      }
      filesDone++;
      if (done.lastOfRun()) {
        runsDone++;
      }
      listener.progress(
          new ImportProgress(runsDone, runsTotal, filesDone, filesTotal, records, bytes));
    }
  }
}
