package io.flightdeck.app;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.storage.Appendable;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.StorageException;
import io.flightdeck.tensorboard.FileTextStore;
import io.flightdeck.tensorboard.ImportListener;
import io.flightdeck.tensorboard.ImportProgress;
import io.flightdeck.tensorboard.ImportSummary;
import io.flightdeck.tensorboard.TensorBoardImport;
import io.flightdeck.tsdb.Tsdb;
import io.flightdeck.tsdb.TsdbOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code flightdeck import tensorboard LOGDIR}: reads every event file under a logdir once and
 * stores its scalars and histograms (names in {@code tensorboard/docs/naming.md}) and its text
 * samples (in the logdir's text store, {@code tensorboard/docs/text-store.md}). Progress and
 * problems go to stderr, the summary to stdout.
 */
@Command(
    name = "tensorboard",
    mixinStandardHelpOptions = true,
    description = {
      "Import the TensorBoard event files under LOGDIR once (backfill). Importing the same files"
          + " again adds nothing. Damaged records are reported with file and offset, counted in"
          + " errors, and the import goes on.",
      "The data directory is opened without retention, so old runs are kept; a server started"
          + " on it later applies its own retention."
    })
final class ImportTensorBoardCommand implements Callable<Integer> {
  /** Samples per commit: large enough to amortise the WAL sync, small enough to bound memory. */
  private static final int BATCH_SIZE = 10_000;

  /**
   * Accepts any earlier timestamp: old runs come in file order, and a re-import must meet the
   * samples already there as same-value duplicates (no-ops), not as out-of-order rejections.
   */
  private static final Duration ACCEPT_ANY_ORDER = Duration.ofDays(365L * 100);

  private static final long PROGRESS_EVERY_NANOS = 1_000_000_000L;

  enum Output {
    text,
    json
  }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "LOGDIR", description = "TensorBoard logdir.")
  String logdir;

  @Option(
      names = "--storage.tsdb.path",
      defaultValue = "data",
      description = "Data directory (default ${DEFAULT-VALUE}).")
  Path dataDir;

  @Option(
      names = "--output",
      defaultValue = "text",
      description = "Summary format: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
  Output output;

  /**
   * Off by default: measured on bench/'s 1 GB logdir (2026-11-30), compacting every 2,000,000
   * samples made the import 3x slower (74 s against 23 s) and raised its peak RSS from 280 to 711
   * MiB. Runs are imported one after another, so after the first compaction most of each later run
   * is backfill behind the head: it waits uncompressed in the head and every compaction rewrites
   * the blocks it overlaps, whose mapped pages count in the RSS. Kept to measure and test that
   * path; see bench/README.md, "What bounds the import's memory".
   */
  @Option(
      names = "--import.compact-every-samples",
      hidden = true,
      description = "Compact the database after every N committed samples; 0 (default): never.")
  long compactEverySamples;

  @Override
  public Integer call() throws Exception {
    if (!Files.isDirectory(Path.of(logdir))) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "logdir is not a directory: " + logdir);
    }
    PrintWriter err = spec.commandLine().getErr();
    ImportSummary summary;
    TsdbOptions options =
        TsdbOptions.defaults(dataDir)
            .withRetention(Duration.ZERO)
            .withOutOfOrderWindow(ACCEPT_ANY_ORDER);
    try (Tsdb tsdb = Tsdb.open(options);
        FileTextStore texts = FileTextStore.open(dataDir, logdir)) {
      if (texts.truncatedBytes() > 0) {
        err.println(
            "import: cut "
                + texts.truncatedBytes()
                + " torn bytes at the end of the text store; they are read again now");
      }
      Appendable storage =
          compactEverySamples > 0 ? new CompactingStorage(tsdb, compactEverySamples) : tsdb;
      summary =
          new TensorBoardImport(storage, texts, BATCH_SIZE, new StderrListener(err)).run(logdir);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(output == Output.json ? json(summary) : text(summary));
    out.flush();
    return 0;
  }

  private static String json(ImportSummary s) throws Exception {
    return new ObjectMapper().writeValueAsString(fields(s));
  }

  private static String text(ImportSummary s) {
    StringBuilder sb = new StringBuilder();
    fields(s).forEach((k, v) -> sb.append(sb.isEmpty() ? "" : " ").append(k).append('=').append(v));
    return sb.toString();
  }

  private static Map<String, Long> fields(ImportSummary s) {
    Map<String, Long> fields = new LinkedHashMap<>();
    fields.put("runs", s.runs());
    fields.put("scalar_points", s.scalarPoints());
    fields.put("histogram_points", s.histogramPoints());
    fields.put("text_points", s.textPoints());
    fields.put("skipped", s.skipped());
    fields.put("errors", s.errors());
    return fields;
  }

  /**
   * Hands out the database's appenders and compacts it after every {@code every} committed samples,
   * between two batches, so that no append is in flight during a compaction.
   */
  private static final class CompactingStorage implements Appendable {
    private final Tsdb tsdb;
    private final long every;
    private long uncompacted;

    CompactingStorage(Tsdb tsdb, long every) {
      this.tsdb = tsdb;
      this.every = every;
    }

    @Override
    public Appender appender() {
      Appender batch = tsdb.appender();
      return new Appender() {
        private long appended;

        @Override
        public long append(long ref, Labels labels, long timestampMillis, double value) {
          long next = batch.append(ref, labels, timestampMillis, value);
          appended++;
          return next;
        }

        @Override
        public void updateMetadata(String metricName, MetricMetadata metadata) {
          batch.updateMetadata(metricName, metadata);
        }

        @Override
        public void commit() {
          batch.commit();
          uncompacted += appended;
          if (uncompacted >= every) {
            uncompacted = 0;
            compact();
          }
        }

        @Override
        public void rollback() {
          batch.rollback();
        }
      };
    }

    private void compact() {
      try {
        tsdb.compact();
      } catch (IOException e) {
        throw new StorageException("compaction during the import failed", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StorageException("compaction during the import was interrupted", e);
      }
    }
  }

  /** Prints progress at most once a second (and after the last file), and every problem. */
  private static final class StderrListener implements ImportListener {
    private final PrintWriter err;
    private final long start = System.nanoTime();
    private long lastPrint = start;

    StderrListener(PrintWriter err) {
      this.err = err;
    }

    @Override
    public void progress(ImportProgress p) {
      long now = System.nanoTime();
      if (now - lastPrint < PROGRESS_EVERY_NANOS && p.filesDone() < p.filesTotal()) {
        return;
      }
      lastPrint = now;
      double mb = p.bytes() / 1e6;
      double seconds = Math.max(now - start, 1) / 1e9;
      err.println(
          String.format(
              Locale.ROOT,
              "import: runs %d/%d files %d/%d records %d %.1f MB %.1f MB/s",
              p.runsDone(),
              p.runsTotal(),
              p.filesDone(),
              p.filesTotal(),
              p.records(),
              mb,
              mb / seconds));
      err.flush();
    }

    @Override
    public void problem(String message) {
      err.println("import: " + message);
      err.flush();
    }
  }
}
