package io.flightdeck.tensorboard;

import io.flightdeck.storage.Appendable;
import java.nio.file.Path;
import java.util.List;

/**
 * Imports every run of a logdir once, in run and file name order, through a {@link
 * TensorBoardIngester}. Damage is reported and counted and the import goes on with the next record
 * or file. The order, and so every timestamp the ingester assigns, is the same on each import of
 * unchanged files, which makes a re-import write identical samples.
 */
public final class TensorBoardImport {
  private final Appendable storage;
  private final TextStore texts;
  private final int batchSize;
  private final ImportListener listener;

  /** An import that counts text samples without storing them. */
  public TensorBoardImport(Appendable storage, int batchSize, ImportListener listener) {
    this(storage, null, batchSize, listener);
  }

  /**
   * @param texts where text samples go, the store of the logdir passed to {@link #run}; null to
   *     only count them
   * @param batchSize samples per commit
   */
  public TensorBoardImport(
      Appendable storage, TextStore texts, int batchSize, ImportListener listener) {
    this.storage = storage;
    this.texts = texts;
    this.batchSize = batchSize;
    this.listener = listener;
  }

  /**
   * @param logdir the logdir as the user gave it; it names the {@code logdir} label
   */
  public ImportSummary run(String logdir) {
    List<TensorBoardRun> runs = RunDiscovery.discover(Path.of(logdir));
    TensorBoardIngester ingester = new TensorBoardIngester(storage, texts, logdir, batchSize);
    int filesTotal = runs.stream().mapToInt(r -> r.eventFiles().size()).sum();
    int runsDone = 0;
    int filesDone = 0;
    long records = 0;
    long bytes = 0;
    long problems = 0;
    for (TensorBoardRun run : runs) {
      // One decoder per run: writers put a tag's metadata only on its first value in the run.
      EventDecoder decoder = new EventDecoder();
      Listener fileListener = new Listener(run.name(), ingester);
      List<Path> files = run.eventFiles();
      for (Path file : files) {
        try {
          ReadProgress read = new EventFileReader(file, decoder).poll(fileListener);
          records += read.records();
          bytes += read.offset() + read.pendingBytes();
          if (read.incomplete()) {
            problems++;
            listener.problem(
                "truncated record at "
                    + file
                    + ":"
                    + read.offset()
                    + " ("
                    + read.pendingBytes()
                    + " bytes)");
          }
        } catch (EventFileException e) {
          problems++;
          listener.problem(e.getMessage());
        }
        filesDone++;
        if (file == files.getLast()) {
          runsDone++;
        }
        listener.progress(
            new ImportProgress(runsDone, runs.size(), filesDone, filesTotal, records, bytes));
      }
      problems += fileListener.corruptions;
    }
    ingester.commit();
    return new ImportSummary(
        runs.size(),
        ingester.scalarPoints(),
        ingester.histogramPoints(),
        ingester.textPoints(),
        ingester.skipped(),
        problems + ingester.rejectedSamples());
  }

  private final class Listener implements EventListener {
    private final String run;
    private final TensorBoardIngester ingester;
    long corruptions;

    Listener(String run, TensorBoardIngester ingester) {
      this.run = run;
      this.ingester = ingester;
    }

    @Override
    public void point(SummaryPoint point) {
      ingester.write(run, point);
    }

    @Override
    public void corruption(Corruption corruption) {
      corruptions++;
      listener.problem(corruption.toString());
    }
  }
}
