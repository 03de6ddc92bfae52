package io.flightdeck.app;

import io.flightdeck.collector.host.MetricFamily;
import io.flightdeck.collector.host.MetricsTextRenderer;
import io.flightdeck.config.RemoteWriteConfig;
import io.flightdeck.model.Clock;
import io.flightdeck.remote.RemoteWriteSender;
import io.flightdeck.remote.RemoteWriteSenderOptions;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.StorageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node agent: collects host metrics (with filesystems), GPU metrics and the host-side figures
 * of the processes on the GPUs, serves the latest collection and its own metrics at {@code
 * /metrics}, and hands each collection to every remote-write sender with the labels a scrape of the
 * agent would add ({@code job} and {@code instance}). With remote write it collects every interval
 * on its own thread; without, on each scrape of {@code /metrics} on the HTTP thread, as
 * node_exporter does: a timer would collect what nobody reads, and waking its thread was a sixth of
 * that thread's CPU (bench/README.md, agent section). Started by {@link #start()}, stopped by
 * {@link #close()}: collection first, then the web server, then the senders (which flush what they
 * can and keep the rest on disk), NVML last.
 */
final class FlightdeckAgent implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FlightdeckAgent.class);

  /**
   * The agent's settings.
   *
   * @param instance the {@code instance} label of the samples sent, {@code host:port}
   * @param queueDir the parent of one disk-queue directory per remote-write endpoint
   */
  record Options(
      ListenAddress listen,
      String instance,
      Path procRoot,
      String nvmlLibrary,
      String hostname,
      Duration interval,
      List<RemoteWriteConfig> remoteWrite,
      Path queueDir,
      long queueMaxBytes) {}

  private final Options options;
  private final Clock clock = Clock.system();
  private final List<RemoteWriteSender> senders = new ArrayList<>();
  private final LongAdder collections = new LongAdder();
  private final LongAdder collectionFailures = new LongAdder();
  private volatile double lastDurationSeconds;

  /** The latest collection, rendered when scraped. */
  private volatile List<MetricFamily> latest = List.of();

  /**
   * Serialises scrapes, which collect (without remote write) and render. Not the agent's monitor:
   * {@link #close()} holds that while the web server waits for scrapes in progress to end.
   */
  private final Object scrapeLock = new Object();

  /** Keeps each series' text between renderings: the agent serves the same series every time. */
  private final MetricsTextRenderer renderer = new MetricsTextRenderer();

  private NodeCollection node;
  private AgentMetrics metrics;
  private ScheduledExecutorService collector;
  private AgentHttpServer web;
  private boolean closed;

  FlightdeckAgent(Options options) {
    this.options = options;
  }

  void start() throws IOException {
    node = new NodeCollection(options.procRoot(), options.nvmlLibrary(), options.hostname(), clock);
    for (RemoteWriteConfig config : options.remoteWrite()) {
      RemoteWriteSender sender =
          new RemoteWriteSender(
              new RemoteWriteSenderOptions(
                  config,
                  options.queueDir().resolve(queueName(config)),
                  options.queueMaxBytes(),
                  RemoteWriteSenderOptions.DEFAULT_FLUSH_TIMEOUT));
      sender.start();
      senders.add(sender);
    }
    metrics =
        new AgentMetrics(
            collections::sum, collectionFailures::sum, () -> lastDurationSeconds, senders);
    if (collectsOnScrape()) {
      startWeb();
      LOG.info(
          "agent collecting on each scrape of /metrics on {}:{}", options.listen().host(), port());
      return;
    }
    collectOnce(); // /metrics has something to show from the first request on
    startWeb();
    collector = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "agent-collector"));
    long period = options.interval().toMillis();
    collector.scheduleAtFixedRate(this::collectOnce, period, period, TimeUnit.MILLISECONDS);
    LOG.info(
        "agent collecting every {} and serving /metrics on {}:{}, sending to {}",
        options.interval(),
        options.listen().host(),
        port(),
        senders.stream().map(s -> s.url()).toList());
  }

  /** Without remote write nothing reads a collection but a scrape. */
  private boolean collectsOnScrape() {
    return options.remoteWrite().isEmpty();
  }

  /** The queue directory of an endpoint: its name, or a hash of its URL as Prometheus does. */
  static String queueName(RemoteWriteConfig config) {
    if (!config.name().isEmpty()) {
      return config.name();
    }
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256")
              .digest(config.url().toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 4);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private void collectOnce() {
    long start = System.nanoTime();
    long timestamp = clock.millis();
    try {
      List<MetricFamily> families = node.collect();
      latest = families;
      send(families, timestamp);
    } catch (RuntimeException e) {
      // One bad collection must not end the schedule (an exception would cancel it).
      collectionFailures.increment();
      LOG.warn("collection failed: {}", e.toString());
    }
    collections.increment();
    lastDurationSeconds = (System.nanoTime() - start) / 1e9;
  }

  private void send(List<MetricFamily> families, long timestamp) {
    for (RemoteWriteSender sender : senders) {
      Appender appender = sender.appender();
      try {
        NodeCollection.append(appender, families, timestamp, options.instance());
        appender.commit();
      } catch (StorageException e) {
        collectionFailures.increment();
        LOG.warn("remote write to {}: {}", sender.url(), e.getMessage());
      }
    }
  }

  private void startWeb() throws IOException {
    web =
        new AgentHttpServer(
            options.listen().host(),
            options.listen().port(),
            Map.of(
                "/metrics", this::metricsBody,
                "/-/healthy", () -> text("Flightdeck agent is Healthy.\n"),
                "/-/ready", () -> text("Flightdeck agent is Ready.\n")),
            SelfMetrics.CONTENT_TYPE);
    web.start();
  }

  private static byte[] text(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** The latest collection (a new one without remote write) and the agent's own metrics. */
  private byte[] metricsBody() {
    synchronized (scrapeLock) {
      if (collectsOnScrape()) {
        collectOnce();
      }
      List<MetricFamily> families = new ArrayList<>(latest);
      families.addAll(metrics.families());
      return renderer.render(families);
    }
  }

  int port() {
    return web.port();
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return; // the shutdown hook after an orderly stop
    }
    closed = true;
    long start = System.nanoTime();
    if (collector != null) {
      collector.shutdown();
      try {
        collector.awaitTermination(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      collector = null;
    }
    if (web != null) {
      web.close();
      web = null;
    }
    for (RemoteWriteSender sender : senders) {
      try {
        sender.close();
      } catch (IOException e) {
        LOG.warn("closing the queue of {}: {}", sender.url(), e.toString());
      }
    }
    senders.clear();
    if (node != null) {
      node.close();
      node = null;
    }
    LOG.info(
        "agent stopped in {} ms after {} collections",
        (System.nanoTime() - start) / 1_000_000,
        collections.sum());
  }
}
