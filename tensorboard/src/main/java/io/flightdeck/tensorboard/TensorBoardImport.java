package io.flightdeck.tensorboard;

import io.flightdeck.storage.Appendable;
import java.nio.file.Path;
import java.util.List;

/**
 * Imports every run of a logdir once, in run and file name order, through a {@link
 * TensorBoardIngester}: a {@link DecodingThread} reads and decodes while the calling thread stores.
 * Damage is reported and counted and the import goes on with the next record or file. The order,
 * and so every timestamp the ingester assigns, is the same on each import of unchanged files, which
 * makes a re-import write identical samples.
 */
public final class TensorBoardImport {
  private final Appendable storage;
  private final SideStores stores;
  private final int batchSize;
  private final ImportListener listener;

  /** An import that counts texts, images and hparams without storing them. */
  public TensorBoardImport(Appendable storage, int batchSize, ImportListener listener) {
    this(storage, SideStores.NONE, batchSize, listener);
  }

  /**
   * @param stores where texts, images and hparams go, the stores of the logdir passed to {@link
   *     #run}
   * @param batchSize samples per commit
   */
  public TensorBoardImport(
      Appendable storage, SideStores stores, int batchSize, ImportListener listener) {
    this.storage = storage;
    this.stores = stores;
    this.batchSize = batchSize;
    this.listener = listener;
  }

  /**
   * @param logdir the logdir as the user gave it; it names the {@code logdir} label
   */
  public ImportSummary run(String logdir) {
    List<TensorBoardRun> runs = RunDiscovery.discover(Path.of(logdir));
    TensorBoardIngester ingester = new TensorBoardIngester(storage, stores, logdir, batchSize);
    runs.forEach(ingester::discovered);
    int filesTotal = runs.stream().mapToInt(r -> r.eventFiles().size()).sum();
    int runsDone = 0;
    int filesDone = 0;
    long records = 0;
    long bytes = 0;
    long problems = 0;
    // Decoding runs on a thread of its own; storing stays on this one, in the same order.
    try (DecodingThread decoded = new DecodingThread(runs)) {
      while (true) {
        switch (decoded.next()) {
          case DecodingThread.Points points -> {
            points.batch().writeTo(ingester);
            decoded.recycle(points);
          }
          case DecodingThread.Damage damage -> {
            problems++;
            listener.problem(damage.corruption().toString());
          }
          case DecodingThread.FileDone done -> {
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
                new ImportProgress(runsDone, runs.size(), filesDone, filesTotal, records, bytes));
          }
          case DecodingThread.Crashed crashed -> throw crashed.cause();
          case DecodingThread.End end -> {
            ingester.commit();
            return new ImportSummary(
                runs.size(),
                ingester.scalarPoints(),
                ingester.histogramPoints(),
                ingester.textPoints(),
                ingester.imagePoints(),
                ingester.hparamsPoints(),
                ingester.skipped(),
                problems + ingester.rejectedSamples());
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("the import was interrupted", e);
    }
  }
}
