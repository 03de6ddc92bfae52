package io.flightdeck.demo;

import io.flightdeck.collector.gpu.GpuCollector;
import io.flightdeck.collector.host.MetricFamily;
import io.flightdeck.collector.host.MetricsText;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A started demo: the simulated cluster's exporters listening on 127.0.0.1, the LoRA runs'
 * TensorBoard logdir being written, and the generated server config that points at both. Start a
 * server with {@link #configFile()}, {@link #logdir()} and {@link #lookbackDelta()}; {@link
 * #close()} stops the simulation (the server is the caller's).
 */
public final class RunningDemo implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RunningDemo.class);
  private static final Duration LOOKBACK_DELTA = Duration.ofMinutes(5);
  private static final long WRITER_PERIOD_MS = 50;

  private final DemoOptions options;
  private final ClusterModel model;
  private final DemoClock clock;
  private final List<Incident> incidents;
  private final ExecutorService http;
  private final ScheduledExecutorService writerThread;
  private final List<MetricsEndpoint> endpoints = new ArrayList<>();
  private final List<GpuCollector> collectors = new ArrayList<>();
  private final Path configFile;
  private final Path logdir;
  private final TensorBoardRuns tensorboard;
  private final ChatReceiver chat;

  private RunningDemo(DemoOptions options) throws IOException {
    this.options = options;
    long seconds = options.duration().toSeconds();
    this.model = new ClusterModel(options.seed(), options.speed(), seconds);
    this.incidents = DemoScript.incidents(options.duration());
    this.http =
        Executors.newFixedThreadPool(
            4, Thread.ofPlatform().daemon().name("demo-exporter-", 0).factory());
    this.writerThread =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("demo-tensorboard").factory());
    Path work = options.workDir().toAbsolutePath().normalize();
    this.logdir = work.resolve("tensorboard");
    this.clock = new DemoClock(options.speed(), seconds);
    List<String> nodes = new ArrayList<>();
    for (int node = 0; node < DemoScript.NODES; node++) {
      nodes.add(nodeEndpoint(node).address());
    }
    List<String> ranks = new ArrayList<>();
    for (int rank = 0; rank < DemoScript.RANKS; rank++) {
      ranks.add(
          rankEndpoint(rank / DemoScript.GPUS_PER_NODE, rank % DemoScript.GPUS_PER_NODE).address());
    }
    MetricsEndpoint truth =
        endpoint(
            () ->
                Optional.of(
                    MetricsText.toText(IncidentFamilies.render(incidents, clock.simSeconds()))));
    List<Path> rules = ScaledRulePacks.write(work.resolve("rules"), options.speed());
    this.chat = new ChatReceiver(http);
    this.configFile =
        DemoConfig.write(
            work.resolve("flightdeck-demo.yml"),
            options,
            new DemoConfig.Endpoints(nodes, ranks, truth.address(), chat.url()),
            rules);
    tensorboard = new TensorBoardRuns(logdir, options.seed(), seconds, clock);
    writerThread.scheduleWithFixedDelay(
        this::writeTensorBoard, 0, WRITER_PERIOD_MS, TimeUnit.MILLISECONDS);
  }

  /** Starts the simulation now; its clock starts at 0. */
  public static RunningDemo start(DemoOptions options) throws IOException {
    return new RunningDemo(options);
  }

  public Path configFile() {
    return configFile;
  }

  /** The TensorBoard logdir the LoRA runs write into, to watch. */
  public Path logdir() {
    return logdir;
  }

  /**
   * The server's {@code --query.lookback-delta}: Prometheus's 5 minutes scaled like the rules, so a
   * series that stops (a finished run, a lost GPU) stops counting as present as soon as it would on
   * a real cluster.
   */
  public Duration lookbackDelta() {
    Duration scaled = new DurationScaler(options.speed()).scale(LOOKBACK_DELTA);
    Duration floor = DemoConfig.interval(options.speed()).multipliedBy(4);
    return scaled.compareTo(floor) < 0 ? floor : scaled;
  }

  /**
   * A span of simulated time as real time, at least two scrape intervals: for the server's
   * judgement of stalls and crashes, scaled as the rules are.
   */
  public Duration scaled(Duration simulated) {
    Duration scaled = new DurationScaler(options.speed()).scale(simulated);
    Duration floor = DemoConfig.interval(options.speed()).multipliedBy(2);
    return scaled.compareTo(floor) < 0 ? floor : scaled;
  }

  /** The scrape (and rule evaluation) interval of the generated config. */
  public Duration scrapeInterval() {
    return DemoConfig.interval(options.speed());
  }

  public List<Incident> incidents() {
    return incidents;
  }

  /** The simulated second at unix time {@code wallSeconds}. */
  public double simSecondsAt(double wallSeconds) {
    return clock.simSecondsAt(wallSeconds);
  }

  public boolean finished() {
    return clock.finished();
  }

  private MetricsEndpoint nodeEndpoint(int node) throws IOException {
    String hostname = DemoScript.hostname(node);
    GpuCollector gpus =
        GpuCollector.create(
            new SimulatedNvml(model, node, () -> model.clamp(clock.simSeconds())), hostname);
    gpus.start();
    collectors.add(gpus);
    return endpoint(
        () -> {
          if (clock.finished()) {
            return Optional.empty();
          }
          int t = model.clamp(clock.simSeconds());
          List<MetricFamily> families = new ArrayList<>(gpus.collect().families());
          families.addAll(HostFamilies.render(model, node, t));
          return Optional.of(MetricsText.toText(families));
        });
  }

  private MetricsEndpoint rankEndpoint(int node, int localRank) throws IOException {
    return endpoint(
        () -> {
          int t = model.clamp(clock.simSeconds());
          if (clock.finished() || !model.training(t)) {
            return Optional.empty();
          }
          return Optional.of(MetricsText.toText(RankFamilies.render(model, node, localRank, t)));
        });
  }

  private MetricsEndpoint endpoint(Supplier<Optional<String>> body) throws IOException {
    MetricsEndpoint endpoint = new MetricsEndpoint(body, http);
    endpoints.add(endpoint);
    return endpoint;
  }

  private void writeTensorBoard() {
    try {
      tensorboard.writeUpTo(clock.simSeconds());
    } catch (IOException e) {
      log.warn("demo: writing the TensorBoard logdir failed: {}", e.toString());
      writerThread.shutdown();
    }
  }

  @Override
  public void close() {
    writerThread.shutdownNow();
    try {
      writerThread.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    endpoints.forEach(MetricsEndpoint::close);
    chat.close();
    collectors.forEach(GpuCollector::close);
    http.shutdownNow();
    try {
      tensorboard.close();
    } catch (IOException e) {
      log.warn("demo: closing the TensorBoard event file failed: {}", e.toString());
    }
  }
}
