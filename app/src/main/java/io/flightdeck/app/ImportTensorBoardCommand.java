package io.flightdeck.app;

import io.flightdeck.model.ByteSizeFormat;
import io.flightdeck.tensorboard.ImportListener;
import io.flightdeck.tensorboard.ImportProgress;
import io.flightdeck.tensorboard.ImportSummary;
import io.flightdeck.tensorboard.TensorBoardImport;
import io.flightdeck.tsdb.BlockImport;
import io.flightdeck.tsdb.Tsdb;
import io.flightdeck.tsdb.TsdbOptions;
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
      "Samples are written straight to blocks, whatever their age, --import.max-memory at a"
          + " time; overlapping blocks are merged at the end. The data directory is opened"
          + " without retention, so old runs are kept; a server started on it later applies its"
          + " own retention."
    })
final class ImportTensorBoardCommand implements Callable<Integer> {
  /** Samples per commit: the block import checks a batch as it comes and buffers it on commit. */
  private static final int BATCH_SIZE = 10_000;

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

  @Option(
      names = "--import.max-memory",
      defaultValue = "64MB",
      description =
          "Compressed samples held before they are written as blocks, e.g. 64MB (default"
              + " ${DEFAULT-VALUE}); bounds the import's memory whatever the logdir's size.")
  String maxMemory;

  @Option(
      names = "--import.workers",
      description =
          "Threads that read, decode and store runs at once, one run each (default: the number of"
              + " CPUs). Fewer leave cores to a training job on the same machine.")
  Integer workers;

  @Override
  public Integer call() throws Exception {
    if (!Files.isDirectory(Path.of(logdir))) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "logdir is not a directory: " + logdir);
    }
    PrintWriter err = spec.commandLine().getErr();
    ImportSummary summary;
    TsdbOptions options = TsdbOptions.defaults(dataDir).withRetention(Duration.ZERO);
    long maxBufferedBytes = maxMemoryBytes();
    int workerThreads = workerThreads();
    try (Tsdb tsdb = Tsdb.open(options);
        LogdirStores stores =
            LogdirStores.open(dataDir, logdir, warning -> err.println("import: " + warning))) {
      BlockImport blocks = tsdb.blockImport(maxBufferedBytes);
      summary =
          new TensorBoardImport(
                  blocks, stores.sideStores(), BATCH_SIZE, workerThreads, new StderrListener(err))
              .run(logdir);
      blocks.finish();
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(output == Output.json ? json(summary) : text(summary));
    out.flush();
    return 0;
  }

  /** Counts under fixed ASCII keys: written directly, without setting up a JSON library. */
  private static String json(ImportSummary s) {
    StringBuilder sb = new StringBuilder("{");
    fields(s)
        .forEach(
            (k, v) ->
                sb.append(sb.length() > 1 ? "," : "")
                    .append('"')
                    .append(k)
                    .append("\":")
                    .append(v));
    return sb.append('}').toString();
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
    fields.put("image_points", s.imagePoints());
    fields.put("hparams_points", s.hparamsPoints());
    fields.put("skipped", s.skipped());
    fields.put("errors", s.errors());
    return fields;
  }

  private long maxMemoryBytes() {
    try {
      long bytes = ByteSizeFormat.parse(maxMemory);
      if (bytes > 0) {
        return bytes;
      }
    } catch (IllegalArgumentException e) {
      // reported below, as for a size of zero
    }
    throw new CommandLine.ParameterException(
        spec.commandLine(),
        "--import.max-memory must be a positive size such as 64MB: " + maxMemory);
  }

  /** By default one per core: each reads, decodes and stores runs into a lane of its own. */
  private int workerThreads() {
    if (workers == null) {
      return Runtime.getRuntime().availableProcessors();
    }
    if (workers < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--import.workers must be at least 1: " + workers);
    }
    return workers;
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
