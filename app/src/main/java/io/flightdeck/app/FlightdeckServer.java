package io.flightdeck.app;

import io.flightdeck.api.ApiRoute;
import io.flightdeck.api.CockpitSeriesApi;
import io.flightdeck.api.DashboardsApi;
import io.flightdeck.api.DashboardsQueriesApi;
import io.flightdeck.api.HeadStatsSource;
import io.flightdeck.api.PrometheusApi;
import io.flightdeck.api.RunsApi;
import io.flightdeck.api.RunsCorrelateApi;
import io.flightdeck.api.RunsHParamsSource;
import io.flightdeck.api.TargetsApi;
import io.flightdeck.api.TensorBoardApi;
import io.flightdeck.config.Config;
import io.flightdeck.config.GlobalConfig;
import io.flightdeck.dashboards.DashboardStore;
import io.flightdeck.model.Clock;
import io.flightdeck.model.DurationFormat;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.engine.EngineOptions;
import io.flightdeck.remote.PushGroupStore;
import io.flightdeck.remote.PushReceiver;
import io.flightdeck.remote.RemoteWriteReceiver;
import io.flightdeck.remote.TextImportReceiver;
import io.flightdeck.rules.RulePacks;
import io.flightdeck.scrape.ScrapeManager;
import io.flightdeck.storage.Queryable;
import io.flightdeck.training.DetectionLoop;
import io.flightdeck.training.RunCatalog;
import io.flightdeck.training.RunCatalogOptions;
import io.flightdeck.tsdb.Tsdb;
import io.flightdeck.tsdb.TsdbOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server mode: owns the database, the receivers and the HTTP server, starts them in order and
 * stops them in reverse (ingestion first, storage last), logging how long each step took.
 */
final class FlightdeckServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(FlightdeckServer.class);

  record Options(
      TsdbOptions tsdb,
      ListenAddress listen,
      boolean enableAdminApi,
      int maxBodyBytes,
      EngineOptions query,
      List<String> tensorboardLogdirs,
      Duration tensorboardPollInterval,
      Map<String, String> flags,
      Path configFile,
      NodeCollectorSettings collector,
      Path cockpitDir,
      RunCatalogOptions runs,
      List<Path> dashboardDirs) {}

  /**
   * The in-process node collection ({@code --collector.*}).
   *
   * @param hostname the node's name, for the {@code Hostname} and {@code instance} labels
   */
  record NodeCollectorSettings(
      boolean enabled, Duration interval, String nvmlLibrary, Path procRoot, String hostname) {}

  /** How often provisioning folders are looked at for new, changed or removed files. */
  private static final Duration DASHBOARD_RESCAN = Duration.ofSeconds(5);

  private final Options options;
  private Tsdb tsdb;
  private Engine engine;
  private DashboardStore dashboards;
  private WebServer web;
  private TensorBoardWatchers tensorboard;
  private HeapGovernor heapGovernor;
  private ScrapeManager scrape;
  private PushReemission pushReemission;
  private ServerCollection nodeCollection;
  private RulesRuntime rules;
  private DetectionLoop detections;
  private AlertDelivery delivery;
  private volatile ConfigReloader reloader;
  private boolean closed;

  FlightdeckServer(Options options) {
    this.options = options;
  }

  void start() throws IOException {
    // A bad configuration stops startup before any file is touched.
    Config config = ConfigReloader.load(options.configFile());
    // Without a config file the shipped rule packs are loaded, from copies in the data folder that
    // /api/v1/rules can name; a config file lists the rule files it wants itself.
    List<Path> packs =
        options.configFile() == null
            ? RulePacks.writeTo(options.tsdb().path().resolve("rule-packs"))
            : List.of();
    heapGovernor = HeapGovernor.startIfUseful();
    long began = System.nanoTime();
    tsdb = Tsdb.open(options.tsdb());
    tsdb.start();
    log.info("storage ready in {} ms", (System.nanoTime() - began) / 1_000_000);
    RemoteWriteReceiver receiver = new RemoteWriteReceiver(tsdb, options.maxBodyBytes());
    tensorboard =
        new TensorBoardWatchers(
            options.tensorboardLogdirs(),
            options.tensorboardPollInterval(),
            tsdb,
            options.tsdb().path());
    engine = new Engine(options.query());
    delivery = new AlertDelivery(externalUrl(), options.tsdb().path());
    rules = new RulesRuntime(engine, tsdb, delivery, externalUrl());
    SelfMetrics metrics =
        new SelfMetrics(
            tsdb, receiver, tensorboard, rules, delivery, () -> reloader, () -> detections);
    PrometheusApi api =
        new PrometheusApi(
            engine,
            tsdb,
            tsdb,
            headStats(tsdb),
            new AppServerStatus(
                tsdb, options.flags(), () -> reloader == null ? "" : reloader.effectiveYaml()),
            Clock.system());
    // Beside the blocks, which the database tells apart by their names.
    dashboards =
        DashboardStore.open(
            options.tsdb().path().resolve("dashboards"), options.dashboardDirs(), Clock.system());
    dashboards.watch(DASHBOARD_RESCAN);
    String scrapeInterval =
        DurationFormat.format(
            (config != null ? config.global() : GlobalConfig.DEFAULT).scrapeInterval());
    HParamsStoreHParams hparams = new HParamsStoreHParams(tensorboard.hparamsStores());
    TensorBoardApi tensorboardApi =
        new TensorBoardApi(
            tsdb,
            new TextStoreTexts(tensorboard.textStores()),
            new ImageStoreImages(tensorboard.imageStores()),
            hparams);
    RunCatalog runs =
        new RunCatalog(tsdb, Clock.system(), new RunsHParamsSource(hparams), options.runs());
    // The detectors run in the background at the rules' pace: their findings are series for the
    // training-detections pack, and the run page's events are ready when it asks.
    detections =
        new DetectionLoop(
            runs,
            tsdb,
            Clock.system(),
            (config != null ? config.global() : GlobalConfig.DEFAULT).evaluationInterval());
    scrape = new ScrapeManager(tsdb, Clock.system());
    PushReceiver pushes =
        new PushReceiver(
            tsdb, Clock.system(), PushGroupStore.open(options.tsdb().path().resolve("push")));
    ConfigReloader configs =
        new ConfigReloader(
            options.configFile(),
            () ->
                Config.defaultSelfScrape(options.listen().host() + ":" + web.port())
                    .withRuleFiles(packs),
            scrape,
            next -> {
              delivery.apply(next);
              rules.apply(next);
              detections.setInterval(next.global().evaluationInterval());
              if (pushReemission != null) {
                pushReemission.apply(next);
              }
            });
    reloader = configs;
    web =
        new WebServer(
            options,
            receiver,
            pushes,
            new TextImportReceiver(tsdb, Clock.system()),
            metrics,
            api,
            tensorboardApi,
            configs,
            new TargetsApi(new ScrapeTargets(scrape)),
            routes(
                rules.routes(),
                new AlertmanagersApi(delivery).routes(),
                new NotificationsApi(delivery).routes(),
                new SilencesApi(delivery).routes(),
                new TensorBoardStatusApi(tensorboard).routes(),
                new AdminApi(tsdb, options.enableAdminApi()).routes(),
                new RunsApi(runs, detections::events, Clock.system()).routes(),
                new CockpitSeriesApi(engine, tsdb, runs).routes(),
                new RunsCorrelateApi(engine, tsdb, runs).routes(),
                new DashboardsApi(dashboards).routes(),
                new DashboardsQueriesApi(dashboards, engine, tsdb, Clock.system(), scrapeInterval)
                    .routes()),
            new Cockpit(options.cockpitDir(), options.runs().runLabel()));
    web.start();
    pushReemission = new PushReemission(pushes, PushReemission.interval(config));
    // Scraping starts once the port is known: without a config file the server scrapes itself.
    configs.applyInitial(config);
    rules.start();
    detections.start();
    startNodeCollection();
    web.markReady();
    log.info(
        "Flightdeck {} listening on http://{}:{} (data in {})",
        BuildInfo.version(),
        options.listen().host(),
        web.port(),
        options.tsdb().path().toAbsolutePath().normalize());
    // The one line a new user needs, on standard output whatever the log level.
    System.out.println("Flightdeck cockpit: " + cockpitUrl());
    System.out.flush();
  }

  /** The node's own host and GPU metrics, under the instance a scrape of this server would give. */
  private void startNodeCollection() {
    NodeCollectorSettings settings = options.collector();
    if (!settings.enabled()) {
      return;
    }
    NodeCollection node =
        new NodeCollection(
            settings.procRoot(), settings.nvmlLibrary(), settings.hostname(), Clock.system());
    nodeCollection =
        new ServerCollection(node, tsdb, Clock.system(), settings.hostname() + ":" + web.port());
    nodeCollection.start(settings.interval());
  }

  @SafeVarargs
  private static List<ApiRoute> routes(List<ApiRoute>... groups) {
    List<ApiRoute> all = new ArrayList<>();
    for (List<ApiRoute> group : groups) {
      all.addAll(group);
    }
    return all;
  }

  /** The cockpit's address; a wildcard listen address is shown as this machine's loopback. */
  String cockpitUrl() {
    String host = options.listen().host();
    if (host.isEmpty() || host.equals("0.0.0.0") || host.equals("::")) {
      host = "127.0.0.1";
    }
    return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + web.port() + "/";
  }

  /** Where alerts link back to: this server's address. */
  private String externalUrl() {
    return "http://" + options.listen().host() + ":" + options.listen().port();
  }

  private static HeadStatsSource headStats(Tsdb tsdb) {
    return new HeadStatsSource() {
      @Override
      public Queryable head() {
        return tsdb.head()::querier;
      }

      @Override
      public long minTime() {
        return tsdb.head().minTime();
      }

      @Override
      public long maxTime() {
        return tsdb.head().maxTime();
      }

      @Override
      public long chunkCount() {
        return tsdb.head().numChunks();
      }
    };
  }

  int port() {
    return web.port();
  }

  /** Reloads the configuration file; logs and keeps the running one if it is bad. */
  void reload() {
    ConfigReloader current = reloader;
    if (current != null) {
      current.reload();
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    long began = System.nanoTime();
    if (engine != null) {
      // Running queries end now as canceled (503) rather than by a dropped connection.
      engine.cancelAll();
    }
    if (scrape != null) {
      scrape.close();
    }
    if (pushReemission != null) {
      pushReemission.close();
    }
    if (nodeCollection != null) {
      nodeCollection.close();
    }
    if (detections != null) {
      detections.close();
    }
    if (rules != null) {
      rules.close();
    }
    if (delivery != null) {
      delivery.close();
    }
    if (tensorboard != null) {
      tensorboard.close();
    }
    if (dashboards != null) {
      dashboards.close();
    }
    if (web != null) {
      web.stop();
    }
    log.info("HTTP server and ingestion stopped in {} ms", (System.nanoTime() - began) / 1_000_000);
    if (heapGovernor != null) {
      heapGovernor.close();
    }
    if (tsdb != null) {
      began = System.nanoTime();
      try {
        tsdb.close();
        log.info("storage closed in {} ms", (System.nanoTime() - began) / 1_000_000);
      } catch (IOException e) {
        log.error("closing storage failed: {}", e.toString());
      }
    }
  }
}
