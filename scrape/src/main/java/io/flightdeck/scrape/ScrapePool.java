package io.flightdeck.scrape;

import io.flightdeck.config.ScrapeConfig;
import io.flightdeck.discovery.Discoverer;
import io.flightdeck.discovery.TargetGroup;
import io.flightdeck.model.Clock;
import io.flightdeck.model.Labels;
import io.flightdeck.storage.Appendable;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One job: its discoverers, the targets they yield and a scrape loop per target. Loops are keyed by
 * their full label set, so a target that stays across discovery updates keeps its loop. Each loop
 * fires on the shared timer at a stable offset within its interval and scrapes on a worker thread
 * of its own, so a slow target delays nobody. Thread-safe.
 */
final class ScrapePool {
  private static final Logger log = LoggerFactory.getLogger(ScrapePool.class);

  private final ScrapeConfig config;
  private final Appendable storage;
  private final Clock clock;
  private final ScheduledExecutorService timer;
  private final ExecutorService workers;
  private final List<Discoverer> discoverers;
  private final HttpScraper scraper;
  private final ScrapeClient client;
  private final List<List<TargetGroup>> groups = new ArrayList<>();
  private final Map<Labels, Running> running = new LinkedHashMap<>();
  private List<DroppedTarget> dropped = List.of();
  private boolean stopped;

  /** The job's pool under its previous configuration, retired when this one starts; or null. */
  private final ScrapePool predecessor;

  /**
   * The predecessor's loops by target, until every discoverer of this pool has reported once: a
   * target found again continues its series, the others are ended then.
   */
  private Map<TargetIdentity, ScrapeLoop> handedOver = new LinkedHashMap<>();

  /**
   * A target across configurations of its job, as Prometheus identifies one: its public labels and
   * URL (a new interval or timeout changes neither).
   */
  record TargetIdentity(Labels labels, java.net.URI url) {
    static TargetIdentity of(ScrapeTarget target) {
      return new TargetIdentity(target.labels(), target.url());
    }
  }

  private final boolean[] reported;

  private record Running(ScrapeLoop loop, ScheduledFuture<?> schedule) {}

  ScrapePool(
      ScrapeConfig config,
      Appendable storage,
      Clock clock,
      ScheduledExecutorService timer,
      ExecutorService workers,
      List<Discoverer> discoverers,
      HttpScraper scraper,
      ScrapeClient client,
      ScrapePool predecessor) {
    this.config = config;
    this.predecessor = predecessor;
    this.storage = storage;
    this.clock = clock;
    this.timer = timer;
    this.workers = workers;
    this.discoverers = List.copyOf(discoverers);
    this.scraper = scraper;
    this.client = client;
    discoverers.forEach(d -> groups.add(List.of()));
    this.reported = new boolean[discoverers.size()];
  }

  ScrapeConfig config() {
    return config;
  }

  /**
   * Starts discovery; a pool replacing its job's earlier one first retires it (off the caller's
   * thread, as that waits for scrapes in flight) and takes over its loops.
   */
  void start() {
    if (predecessor == null) {
      startDiscovery();
      return;
    }
    workers.execute(
        () -> {
          Map<TargetIdentity, ScrapeLoop> loops = predecessor.retire();
          synchronized (this) {
            handedOver = new LinkedHashMap<>(loops);
          }
          startDiscovery();
        });
  }

  private void startDiscovery() {
    if (discoverers.isEmpty()) {
      endUnclaimed();
    }
    for (int i = 0; i < discoverers.size(); i++) {
      int index = i;
      discoverers.get(i).start(update -> update(index, update));
    }
  }

  private synchronized void update(int index, List<TargetGroup> update) {
    if (stopped) {
      return;
    }
    groups.set(index, update);
    sync();
    reported[index] = true;
    boolean all = true;
    for (boolean r : reported) {
      all &= r;
    }
    if (all) {
      endUnclaimed();
    }
  }

  /** Ends the series of the predecessor's targets that this configuration does not scrape. */
  private synchronized void endUnclaimed() {
    if (handedOver.isEmpty()) {
      return;
    }
    for (ScrapeLoop gone : handedOver.values()) {
      try {
        workers.execute(gone::endSeries);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        // shutting down: no staleness markers then
      }
    }
    handedOver = new LinkedHashMap<>();
  }

  /** Reconciles loops with the targets of every discoverer's latest groups. */
  private void sync() {
    Map<Labels, TargetBuilder.Result> targets = new LinkedHashMap<>();
    List<DroppedTarget> drops = new ArrayList<>();
    for (List<TargetGroup> list : groups) {
      for (TargetGroup group : list) {
        for (Labels labels : group.targets()) {
          TargetBuilder.Result result = TargetBuilder.build(labels, group.labels(), config);
          if (result.dropped()) {
            drops.add(new DroppedTarget(result.discovered(), config.jobName()));
          } else if (result.error() != null) {
            log.warn("job {}: target {} skipped: {}", config.jobName(), labels, result.error());
          } else {
            targets.putIfAbsent(result.target().all(), result);
          }
        }
      }
    }
    dropped = List.copyOf(drops);
    for (var it = running.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Labels, Running> entry = it.next();
      if (!targets.containsKey(entry.getKey())) {
        it.remove();
        Running gone = entry.getValue();
        gone.schedule().cancel(false);
        try {
          workers.execute(() -> gone.loop().stop(true));
        } catch (java.util.concurrent.RejectedExecutionException e) {
          // shutting down: no staleness markers then
        }
      }
    }
    // As in Prometheus, too many targets fail every scrape of the job until the count drops. The
    // error is set before a new loop is scheduled, so not even its first scrape goes out.
    long limit = config.limits().targetLimit();
    String error =
        limit > 0 && targets.size() > limit
            ? "target_limit exceeded (number of targets: "
                + targets.size()
                + ", limit: "
                + limit
                + ")"
            : null;
    for (TargetBuilder.Result result : targets.values()) {
      Running existing = running.get(result.target().all());
      if (existing != null) {
        existing.loop().discovered(result.discovered());
        existing.loop().forceError(error);
      } else {
        running.put(result.target().all(), schedule(result, error));
      }
    }
  }

  private Running schedule(TargetBuilder.Result result, String forcedError) {
    ScrapeTarget target = result.target();
    ScrapeLoop loop = new ScrapeLoop(target, result.discovered(), config, scraper, storage, clock);
    ScrapeLoop previous = handedOver.remove(TargetIdentity.of(target));
    if (previous != null) {
      loop.adopt(previous);
    }
    loop.forceError(forcedError);
    AtomicBoolean busy = new AtomicBoolean();
    Runnable tick =
        () -> {
          // A scrape still running (bounded by its timeout) makes this tick a no-op.
          if (busy.compareAndSet(false, true)) {
            workers.execute(
                () -> {
                  try {
                    loop.scrapeOnce();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  } catch (RuntimeException e) {
                    log.error("scrape of {} failed", target.url(), e);
                  } finally {
                    busy.set(false);
                  }
                });
          }
        };
    long interval = target.interval().toMillis();
    long delay = Offsets.initialDelay(target.all(), interval, clock.millis());
    ScheduledFuture<?> schedule =
        timer.scheduleAtFixedRate(tick, delay, interval, TimeUnit.MILLISECONDS);
    return new Running(loop, schedule);
  }

  synchronized List<TargetStatus> active() {
    List<TargetStatus> list = new ArrayList<>();
    for (Running r : running.values()) {
      ScrapeTarget target = r.loop().target();
      ScrapeLoop.Status status = r.loop().status();
      list.add(
          new TargetStatus(
              r.loop().discovered(),
              target.labels(),
              config.jobName(),
              target.url().toString(),
              globalUrl(target.url()),
              status.lastError(),
              status.lastScrapeMillis(),
              status.lastDurationSeconds(),
              status.health(),
              target.all().get(ScrapeTarget.SCRAPE_INTERVAL),
              target.all().get(ScrapeTarget.SCRAPE_TIMEOUT)));
    }
    return list;
  }

  synchronized List<DroppedTarget> dropped() {
    return dropped;
  }

  synchronized List<TargetMetadata> metadata() {
    List<TargetMetadata> list = new ArrayList<>();
    for (Running r : running.values()) {
      r.loop()
          .status()
          .metadata()
          .forEach((name, m) -> list.add(new TargetMetadata(r.loop().target().labels(), name, m)));
    }
    return list;
  }

  /** Loops known to this pool, for tests that drive scrapes by hand. */
  synchronized List<ScrapeLoop> loops() {
    return running.values().stream().map(Running::loop).toList();
  }

  /**
   * Stops discovery and every loop; with {@code stale} (the job is gone) every series its targets
   * wrote is marked stale. Returns once the loops have stopped.
   */
  void stop(boolean stale) {
    Map<TargetIdentity, ScrapeLoop> loops = retire();
    if (stale) {
      loops.values().forEach(ScrapeLoop::endSeries);
    }
  }

  /**
   * Stops discovery and every loop without ending any series, and returns the loops by target (with
   * those still handed over from a predecessor), for the job's next pool to take over.
   */
  Map<TargetIdentity, ScrapeLoop> retire() {
    List<Running> loops;
    Map<TargetIdentity, ScrapeLoop> unclaimed;
    synchronized (this) {
      stopped = true;
      loops = new ArrayList<>(running.values());
      running.clear();
      unclaimed = handedOver;
      handedOver = new LinkedHashMap<>();
    }
    discoverers.forEach(Discoverer::close);
    loops.forEach(r -> r.schedule().cancel(false));
    Map<TargetIdentity, ScrapeLoop> out = new LinkedHashMap<>();
    for (Running r : loops) {
      r.loop().stop(false);
      out.put(TargetIdentity.of(r.loop().target()), r.loop());
    }
    unclaimed.forEach(out::putIfAbsent);
    client.close(); // aborts exchanges still hanging
    return out;
  }

  /** Prometheus's globalUrl: the scrape URL with a loopback host replaced by this host's name. */
  private static String globalUrl(URI url) {
    String host = url.getHost();
    if (host == null
        || !(host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]"))) {
      return url.toString();
    }
    try {
      String name = java.net.InetAddress.getLocalHost().getHostName();
      return url.toString().replaceFirst("//" + java.util.regex.Pattern.quote(host), "//" + name);
    } catch (java.net.UnknownHostException e) {
      return url.toString();
    }
  }
}
