package io.flightdeck.app;

import io.flightdeck.model.ByteSizeFormat;
import io.flightdeck.model.DurationFormat;
import io.flightdeck.promql.engine.EngineOptions;
import io.flightdeck.training.RunCatalogOptions;
import io.flightdeck.tsdb.TsdbOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import sun.misc.Signal;

/** {@code flightdeck server}: the central server on the embedded database. */
@Command(
    name = "server",
    mixinStandardHelpOptions = true,
    description = "Run the server: remote-write ingestion into the embedded time-series database.")
final class ServerCommand implements Callable<Integer> {
  /** The config file used when the working folder has one and no --config.file is given. */
  static final String DEFAULT_CONFIG_FILE = "flightdeck.yml";

  /** The logdir watched when no --tensorboard.logdir is given: PyTorch's SummaryWriter default. */
  static final String DEFAULT_LOGDIR = "runs";

  @Option(
      names = "--config.file",
      description =
          "prometheus.yml-compatible configuration: scrape jobs, rule files, notifications and"
              + " more. Default: ./"
              + DEFAULT_CONFIG_FILE
              + " when it exists; without one, the server scrapes its own /metrics and loads the"
              + " shipped GPU and training rule packs.")
  Path configFile;

  @Option(
      names = "--web.listen-address",
      defaultValue = "127.0.0.1:9595",
      description =
          "Address to listen on (default ${DEFAULT-VALUE}: reachable from this machine only).")
  String listenAddress;

  @Option(names = "--web.enable-admin-api", description = "Enable the admin endpoints (snapshot).")
  boolean enableAdminApi;

  @Option(
      names = "--web.remote-write-receiver.max-body-size",
      defaultValue = "32MB",
      description = "Largest remote-write body, compressed or not (default ${DEFAULT-VALUE}).")
  String maxBodySize;

  @Option(
      names = "--storage.tsdb.path",
      defaultValue = "./data",
      description = "Data directory (default ${DEFAULT-VALUE}).")
  Path path;

  @Option(
      names = "--storage.tsdb.retention.time",
      defaultValue = "15d",
      description =
          "How long to keep samples, e.g. 15d, 6w, 1y; 0 keeps them forever (default ${DEFAULT-VALUE}).")
  String retentionTime;

  @Option(
      names = "--storage.tsdb.retention.size",
      description =
          "Largest size of blocks and WAL together, e.g. 50GB; the oldest blocks go first.")
  String retentionSize;

  @Option(
      names = "--storage.tsdb.out-of-order-time-window",
      defaultValue = "0s",
      description =
          "How far behind a series' newest sample a sample is still accepted (default ${DEFAULT-VALUE}: none).")
  String outOfOrderWindow;

  @Option(
      names = "--storage.tsdb.min-block-duration",
      defaultValue = "2h",
      description = "Span of the blocks cut from memory (default ${DEFAULT-VALUE}).")
  String blockDuration;

  @Option(
      names = "--storage.tsdb.max-series",
      defaultValue = "2000000",
      description =
          "Cap on active series; new series beyond it are refused (default ${DEFAULT-VALUE}).")
  int maxSeries;

  @Option(
      names = "--storage.tsdb.max-series-per-metric",
      defaultValue = "200000",
      description =
          "Cap on active series of one metric name, against label explosions (default ${DEFAULT-VALUE}).")
  int maxSeriesPerMetric;

  @Option(
      names = "--storage.tsdb.compaction-interval",
      defaultValue = "1m",
      description =
          "How often to move data to blocks and apply retention (default ${DEFAULT-VALUE}).")
  String compactionInterval;

  @Option(
      names = "--query.lookback-delta",
      defaultValue = "5m",
      description =
          "How far back a query looks for the latest sample of a series (default ${DEFAULT-VALUE}).")
  String lookbackDelta;

  @Option(
      names = "--query.max-samples",
      defaultValue = "50000000",
      description = "Most samples one query may hold in memory at once (default ${DEFAULT-VALUE}).")
  long maxSamples;

  @Option(
      names = "--query.timeout",
      defaultValue = "2m",
      description = "Longest a query may run, queueing included (default ${DEFAULT-VALUE}).")
  String queryTimeout;

  @Option(
      names = "--query.max-memory",
      description =
          "Most memory one query may hold (series buffers, step vectors, intermediate results),"
              + " e.g. 512MB; past it the query ends with 422 naming this flag (default: a quarter"
              + " of the heap).")
  String maxQueryMemory;

  @Option(
      names = "--query.max-memory-total",
      description =
          "Most memory all running queries may hold together (default: half of the heap).")
  String maxQueryMemoryTotal;

  @Option(
      names = "--query.max-concurrency",
      defaultValue = "20",
      description = "Most queries evaluated at once; others wait (default ${DEFAULT-VALUE}).")
  int maxConcurrency;

  @Option(
      names = "--query.max-workers-per-query",
      description =
          "Most threads one query spreads the reading of a selection of more than 32 series"
              + " over, its own included (default 1: one thread, as in Prometheus).")
  Integer maxWorkersPerQuery;

  @Option(
      names = "--tensorboard.logdir",
      description =
          "A TensorBoard logdir to watch live: every run's scalars, histograms and text samples"
              + " are stored as they are written. Repeatable. Default: ./"
              + DEFAULT_LOGDIR
              + ", where PyTorch's SummaryWriter writes.")
  List<String> tensorboardLogdirs = new ArrayList<>();

  @Option(
      names = "--web.cockpit.dir",
      description =
          "Serve the cockpit's files from this folder instead of the jar, to edit them without a"
              + " build (cockpit/src/main/resources/io/flightdeck/cockpit/static).")
  Path cockpitDir;

  @Option(
      names = "--dashboards.dir",
      description =
          "A folder of dashboard files (Grafana JSON, Perses JSON or YAML) loaded at start and on"
              + " change; saving one writes its file back. Repeatable.")
  List<Path> dashboardDirs = new ArrayList<>();

  @Option(
      names = "--cockpit.stall-after",
      defaultValue = "2m",
      description =
          "Shortest pause of a run's step that counts as a stall (hung rank), however fast the run"
              + " steps (default ${DEFAULT-VALUE}).")
  String stallAfter;

  @Option(
      names = "--cockpit.crash-after",
      defaultValue = "5m",
      description =
          "Shortest silence of a run's training series that counts as a crash unless it finished"
              + " (default ${DEFAULT-VALUE}).")
  String crashAfter;

  @Option(
      names = "--cockpit.rate-window",
      defaultValue = "10m",
      description =
          "How far back a run's pace (steps per second) is measured for its ETA; a drifting pace"
              + " is judged over three of these (default ${DEFAULT-VALUE}).")
  String rateWindow;

  @Option(
      names = "--cockpit.detection-window",
      defaultValue = "1h",
      description =
          "How far back the run detectors read each running run up to four times an evaluation"
              + " interval, for the flightdeck_run_detection series and the run events' cache (default"
              + " ${DEFAULT-VALUE}).")
  String detectionWindow;

  @Option(
      names = "--cockpit.run-label",
      defaultValue = "run",
      description =
          "The label that names a training run, whatever its source (default ${DEFAULT-VALUE};"
              + " e.g. exp_id).")
  String runLabel;

  @Option(
      names = "--tensorboard.poll-interval",
      defaultValue = "1s",
      description =
          "How often logdirs are checked for new runs and records (default ${DEFAULT-VALUE}).")
  String tensorboardPollInterval;

  @Option(
      names = "--collector.enable",
      arity = "0..1",
      defaultValue = "true",
      fallbackValue = "true",
      description =
          "Collect this node's host metrics (node_exporter names) and GPU metrics (dcgm-exporter"
              + " names) in the server, as `flightdeck agent` does, with job=\""
              + NodeCollection.JOB
              + "\" (default ${DEFAULT-VALUE}; --collector.enable=false turns it off).")
  boolean collectorEnabled;

  @Mixin NodeCollectorFlags node;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    TsdbOptions options =
        TsdbOptions.defaults(path)
            .withRetention(DurationFormat.parse(retentionTime))
            .withRetentionBytes(retentionSize == null ? 0 : ByteSizeFormat.parse(retentionSize))
            .withOutOfOrderWindow(DurationFormat.parse(outOfOrderWindow))
            .withBlockRange(DurationFormat.parse(blockDuration))
            .withSeriesLimits(maxSeries, maxSeriesPerMetric)
            .withCompactionInterval(DurationFormat.parse(compactionInterval));
    EngineOptions query =
        new EngineOptions(
            DurationFormat.parse(lookbackDelta),
            maxSamples,
            DurationFormat.parse(queryTimeout),
            maxConcurrency,
            EngineOptions.DEFAULT.defaultSubqueryStep(),
            EngineOptions.DEFAULT.delayedNameRemoval(),
            maxWorkersPerQuery == null
                ? EngineOptions.Parallelism.DEFAULT
                : new EngineOptions.Parallelism(
                    maxWorkersPerQuery, EngineOptions.Parallelism.DEFAULT.seriesPerBatch()));
    long heap = Runtime.getRuntime().maxMemory();
    query =
        query.withMaxMemory(
            maxQueryMemory == null ? heap / 4 : ByteSizeFormat.parse(maxQueryMemory),
            maxQueryMemoryTotal == null ? heap / 2 : ByteSizeFormat.parse(maxQueryMemoryTotal));
    ListenAddress address = ListenAddress.parse(listenAddress);
    FlightdeckServer server =
        new FlightdeckServer(
            new FlightdeckServer.Options(
                options,
                address,
                enableAdminApi,
                (int) ByteSizeFormat.parse(maxBodySize),
                query,
                tensorboardLogdirs.isEmpty()
                    ? List.of(DEFAULT_LOGDIR)
                    : List.copyOf(tensorboardLogdirs),
                DurationFormat.parse(tensorboardPollInterval),
                flags(),
                effectiveConfigFile(),
                new FlightdeckServer.NodeCollectorSettings(
                    collectorEnabled,
                    node.interval(),
                    node.nvmlLibrary,
                    node.procRoot,
                    node.hostname()),
                cockpitDir,
                RunCatalogOptions.DEFAULT
                    .withRunLabel(runLabel)
                    .withStallFloor(DurationFormat.parse(stallAfter))
                    .withSilenceFloor(DurationFormat.parse(crashAfter))
                    .withRateWindow(DurationFormat.parse(rateWindow))
                    .withDetectionWindow(DurationFormat.parse(detectionWindow)),
                List.copyOf(dashboardDirs)));
    // SIGTERM and SIGINT stop the server in order and exit 0, as Prometheus does; the JVM's own
    // handling would exit 143. The shutdown hook still covers any other way the JVM ends.
    CountDownLatch stopRequested = new CountDownLatch(1);
    for (String signal : new String[] {"TERM", "INT"}) {
      Signal.handle(new Signal(signal), s -> stopRequested.countDown());
    }
    // SIGHUP reloads the configuration, as in Prometheus; a bad file leaves the running one.
    Signal.handle(new Signal("HUP"), s -> server.reload());
    Thread hook = new Thread(server::close, "shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    server.start();
    stopRequested.await();
    server.close();
    return 0;
  }

  /** --config.file, else ./flightdeck.yml when the working folder has one. */
  private Path effectiveConfigFile() {
    if (configFile != null) {
      return configFile;
    }
    Path local = Path.of(DEFAULT_CONFIG_FILE);
    return Files.isRegularFile(local) ? local : null;
  }

  /** Every flag with its effective value, named without dashes, for /api/v1/status/flags. */
  private Map<String, String> flags() {
    Map<String, String> flags = new TreeMap<>();
    for (OptionSpec option : spec.options()) {
      String name = option.longestName();
      if (name.startsWith("--") && !option.usageHelp() && !option.versionHelp()) {
        Object value = option.getValue();
        flags.put(name.substring(2), value == null ? "" : value.toString());
      }
    }
    return flags;
  }
}
