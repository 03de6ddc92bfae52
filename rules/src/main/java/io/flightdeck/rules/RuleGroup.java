package io.flightdeck.rules;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.promql.engine.Sample;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.SampleRejectedException;
import io.flightdeck.storage.Series;
import io.flightdeck.storage.SeriesSet;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rules evaluated in order at one interval, later rules seeing what earlier ones recorded. Its
 * thread evaluates at slots offset by a hash of file and name, so that groups spread out and keep
 * their phase across restarts. One lock guards evaluation, state transfer and snapshots.
 */
final class RuleGroup {
  private static final Logger log = LoggerFactory.getLogger(RuleGroup.class);

  final RuleGroupSpec spec;
  final String file;
  final long intervalMs;
  final long queryOffsetMs;
  final List<Rule> rules;
  private final RuleManagerOptions options;
  private final RuleContext context;

  private final List<Set<Labels>> seriesInPreviousEval = new ArrayList<>();

  /** Series of rules dropped by a reload, to be marked stale at the next evaluation. */
  private final Set<Labels> staleSeries = new HashSet<>();

  private long lastEvaluationMs;
  private long evaluationNanos;
  private boolean shouldRestore;
  private GroupCounters counters = GroupCounters.ZERO;

  private final CountDownLatch stop = new CountDownLatch(1);
  private Thread thread;

  RuleGroup(RuleGroupSpec spec, String file, RuleManagerOptions options) {
    this.spec = spec;
    this.file = file;
    this.options = options;
    this.intervalMs =
        (spec.interval() != null && !spec.interval().isZero()
                ? spec.interval()
                : options.evaluationInterval())
            .toMillis();
    this.queryOffsetMs =
        (spec.queryOffset() != null ? spec.queryOffset() : options.queryOffset()).toMillis();
    this.context =
        new RuleContext(options.query(), options.externalLabels(), options.externalURL());
    List<Rule> built = new ArrayList<>();
    for (RuleSpec r : spec.rules()) {
      Map<String, String> labels = new LinkedHashMap<>(spec.labels());
      labels.putAll(r.labels());
      built.add(r.isAlerting() ? new AlertingRule(r, labels) : new RecordingRule(r, labels));
      seriesInPreviousEval.add(new HashSet<>());
    }
    this.rules = List.copyOf(built);
  }

  /**
   * Whether the group restores its for-state after its second evaluation (groups loaded at
   * startup). Until then its alerting rules write no ALERTS series, as in Prometheus.
   */
  synchronized void setShouldRestore(boolean restore) {
    shouldRestore = restore;
    for (Rule rule : rules) {
      if (rule instanceof AlertingRule ar) {
        ar.restored = !restore;
      }
    }
  }

  /** Whether {@code other} would evaluate exactly like this group, so this one can keep running. */
  boolean sameSettings(RuleGroup other) {
    return spec.equals(other.spec)
        && intervalMs == other.intervalMs
        && queryOffsetMs == other.queryOffsetMs
        && options.externalLabels().equals(other.options.externalLabels());
  }

  String key() {
    return file + ";" + spec.name();
  }

  /** Evaluates every rule at {@code ts} (ms), writing results and alerts; never throws. */
  synchronized void eval(long ts) {
    long groupStart = System.nanoTime();
    long at = ts - queryOffsetMs;
    for (int i = 0; i < rules.size(); i++) {
      Rule rule = rules.get(i);
      long start = System.nanoTime();
      rule.lastEvaluationMs = options.clock().millis();
      try {
        evalRule(i, rule, ts, at);
      } finally {
        rule.evaluationNanos = System.nanoTime() - start;
      }
      counters = counters.evaluated(rule.health == RuleHealth.ERR);
    }
    counters = counters.iterated();
    if (!staleSeries.isEmpty()) {
      writeStale(staleSeries, at);
      staleSeries.clear();
    }
    evaluationNanos = System.nanoTime() - groupStart;
    lastEvaluationMs = options.clock().millis();
  }

  private void evalRule(int i, Rule rule, long ts, long at) {
    List<Sample> vector;
    try {
      vector = rule.eval(context, ts, queryOffsetMs, spec.limit());
    } catch (RuntimeException e) {
      fail(rule, e);
      return;
    }
    rule.health = RuleHealth.OK;
    rule.lastError = "";
    if (rule instanceof AlertingRule ar) {
      send(ar, ar.alertsToSend(ts, options.resendDelay().toMillis(), intervalMs));
    }
    Appender app = null;
    try {
      app = options.appendable().appender();
      Set<Labels> returned = new HashSet<>();
      for (Sample s : vector) {
        try {
          app.append(0, s.labels(), s.timestamp(), s.value());
          returned.add(s.labels());
        } catch (SampleRejectedException e) {
          rule.health = RuleHealth.ERR;
          rule.lastError = String.valueOf(e.getMessage());
        }
      }
      for (Labels previous : seriesInPreviousEval.get(i)) {
        if (!returned.contains(previous)) {
          appendQuietly(app, previous, at, StaleMarker.VALUE);
        }
      }
      app.commit();
      seriesInPreviousEval.set(i, returned);
    } catch (RuntimeException e) {
      // Storage cannot take writes now (closing, disk full): the rule reports it, the group goes
      // on.
      rollbackQuietly(app);
      fail(rule, e);
    }
  }

  private void fail(Rule rule, RuntimeException e) {
    rule.health = RuleHealth.ERR;
    rule.lastError = String.valueOf(e.getMessage());
    log.warn("rule {} of group {} failed: {}", rule.name(), spec.name(), e.getMessage());
  }

  /** A failing sink must not stop evaluation; the notifier owns retries. */
  private void send(AlertingRule rule, List<Alert> alerts) {
    if (alerts.isEmpty()) {
      return;
    }
    try {
      options.sink().send(rule.expr.toString(), alerts);
    } catch (RuntimeException e) {
      log.error("alert sink failed for rule {}: {}", rule.name(), e.toString(), e);
    }
  }

  private static void rollbackQuietly(Appender app) {
    if (app == null) {
      return;
    }
    try {
      app.rollback();
    } catch (RuntimeException e) {
      log.warn("rollback failed: {}", e.getMessage());
    }
  }

  /** Stale markers may clash with newer samples; like Prometheus, such refusals are ignored. */
  private static void appendQuietly(Appender app, Labels labels, long t, double v) {
    try {
      app.append(0, labels, t, v);
    } catch (SampleRejectedException ignored) {
      // a newer sample already ended or continued the series
    }
  }

  /** Writes stale markers; a storage failure is logged, as there is no rule to report it on. */
  private void writeStale(Iterable<Labels> series, long t) {
    Appender app = null;
    try {
      app = options.appendable().appender();
      for (Labels l : series) {
        appendQuietly(app, l, t, StaleMarker.VALUE);
      }
      app.commit();
    } catch (RuntimeException e) {
      rollbackQuietly(app);
      log.warn("writing stale markers failed: {}", e.getMessage());
    }
  }

  /**
   * Restores each alert's {@code activeAt} from ALERTS_FOR_STATE written before a restart, so a
   * long {@code for} is not reset; the outage is added, with a grace period before firing.
   */
  synchronized void restoreForState(long ts) {
    long tolerance = options.outageTolerance().toMillis();
    long grace = options.forGracePeriod().toMillis();
    try (Querier q = options.queryable().querier(ts - tolerance, ts)) {
      for (Rule rule : rules) {
        if (!(rule instanceof AlertingRule ar)) {
          continue;
        }
        if (ar.holdMs < grace) {
          ar.restored = true;
          continue;
        }
        Map<Labels, long[]> last = lastForState(q, ar);
        for (ActiveAlert a : ar.active.values()) {
          long[] tv = last.get(a.labels);
          if (tv == null) {
            continue;
          }
          long downAt = tv[0] / 1000 * 1000;
          long activeAt = tv[1] * 1000;
          long remaining = ar.holdMs - (downAt - activeAt);
          if (remaining <= 0) {
            // it would have fired already; keep the original activeAt
          } else if (remaining < grace) {
            activeAt = ts + grace - ar.holdMs;
          } else {
            activeAt += ts - downAt;
          }
          a.activeAt = activeAt;
        }
        ar.restored = true;
      }
    }
  }

  /**
   * The last (time, activeAt seconds) of each alert's ALERTS_FOR_STATE series, stale ones left out.
   */
  private static Map<Labels, long[]> lastForState(Querier q, AlertingRule ar) {
    List<Matcher> matchers = new ArrayList<>();
    matchers.add(Matcher.equal(Labels.METRIC_NAME, "ALERTS_FOR_STATE"));
    matchers.add(Matcher.equal("alertname", ar.name()));
    ar.labels.forEach((k, v) -> matchers.add(Matcher.equal(k, v)));
    Map<Labels, long[]> out = new HashMap<>();
    SeriesSet set = q.select(false, matchers.toArray(Matcher[]::new));
    while (set.next()) {
      Series s = set.at();
      SampleIterator it = s.iterator(null);
      long t = 0;
      double v = StaleMarker.VALUE;
      while (it.next()) {
        t = it.timestamp();
        v = it.value();
      }
      if (!StaleMarker.is(v)) {
        out.put(
            s.labels().toBuilder().remove(Labels.METRIC_NAME).build(), new long[] {t, (long) v});
      }
    }
    return out;
  }

  /** Takes over the state of the group this one replaces on reload (Prometheus's CopyState). */
  synchronized void copyState(RuleGroup old) {
    synchronized (old) {
      counters = old.counters;
      lastEvaluationMs = old.lastEvaluationMs;
      evaluationNanos = old.evaluationNanos;
      Map<String, List<Integer>> oldByIdentity = new HashMap<>();
      for (int i = 0; i < old.rules.size(); i++) {
        oldByIdentity.computeIfAbsent(old.rules.get(i).identity(), k -> new ArrayList<>()).add(i);
      }
      Set<Integer> taken = new HashSet<>();
      for (int i = 0; i < rules.size(); i++) {
        Rule rule = rules.get(i);
        List<Integer> candidates = oldByIdentity.getOrDefault(rule.identity(), List.of());
        if (candidates.isEmpty()) {
          continue;
        }
        int j = candidates.removeFirst();
        taken.add(j);
        Rule previous = old.rules.get(j);
        seriesInPreviousEval.set(i, old.seriesInPreviousEval.get(j));
        rule.health = previous.health;
        rule.lastError = previous.lastError;
        rule.lastEvaluationMs = previous.lastEvaluationMs;
        rule.evaluationNanos = previous.evaluationNanos;
        if (rule instanceof AlertingRule ar && previous instanceof AlertingRule pr) {
          ar.active.putAll(pr.active);
          ar.restored = pr.restored;
        }
      }
      for (int j = 0; j < old.rules.size(); j++) {
        if (!taken.contains(j)) {
          staleSeries.addAll(old.seriesInPreviousEval.get(j));
        }
      }
      staleSeries.addAll(old.staleSeries);
    }
  }

  synchronized GroupSnapshot snapshot() {
    return new GroupSnapshot(
        spec.name(),
        file,
        intervalMs / 1000.0,
        spec.limit(),
        rules.stream().map(Rule::snapshot).toList(),
        evaluationNanos / 1e9,
        lastEvaluationMs,
        counters);
  }

  /**
   * The evaluation slot at or before {@code nowMs}: Prometheus's phase (a hash of the group modulo
   * the interval, in nanoseconds), kept to whole milliseconds as our timestamps are.
   */
  long evalTimestamp(long nowMs) {
    long offsetMs = Long.remainderUnsigned(hash(), intervalMs * 1_000_000L) / 1_000_000L;
    long adjusted = nowMs - offsetMs;
    return adjusted - Math.floorMod(adjusted, intervalMs) + offsetMs;
  }

  /** FNV-1a 64 of "name;file", as Prometheus hashes a group. */
  private long hash() {
    long h = 0xcbf29ce484222325L;
    for (byte b : (spec.name() + ";" + file).getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return h;
  }

  // ---- the evaluation thread ----

  synchronized void start() {
    // The first slot is fixed now, not when the thread gets going, so a clock that moves in
    // between cannot skip it.
    long first = evalTimestamp(options.clock().millis()) + intervalMs;
    thread = new Thread(() -> run(first), "rules-" + spec.name());
    thread.setDaemon(true);
    thread.start();
  }

  /** Stops the thread; a group removed by a reload marks its series stale on the way out. */
  void stop(boolean markStale) {
    stop.countDown();
    Thread t;
    synchronized (this) {
      t = thread;
    }
    if (t != null) {
      joinUninterruptibly(t);
    }
    if (markStale) {
      markAllStale(options.clock().millis());
    }
  }

  /** Waits for the thread even when interrupted, then restores the interrupt. */
  private static void joinUninterruptibly(Thread t) {
    boolean interrupted = false;
    while (true) {
      try {
        t.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  synchronized Thread thread() {
    return thread;
  }

  private void run(long first) {
    long evalTs = first;
    try {
      if (!waitUntil(evalTs)) {
        return;
      }
      evalSafely(evalTs);
      if (shouldRestore) {
        // Wait one more evaluation so that recording rules the alerts use have fresh values.
        if (!waitUntil(evalTs + intervalMs)) {
          return;
        }
        evalTs = nextSlot(evalTs);
        evalSafely(evalTs);
        restoreSafely(options.clock().millis());
      }
      while (waitUntil(evalTs + intervalMs)) {
        evalTs = nextSlot(evalTs);
        evalSafely(evalTs);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The thread survives anything one evaluation throws; the next slot tries again. */
  private void evalSafely(long ts) {
    try {
      eval(ts);
    } catch (RuntimeException e) {
      log.error("evaluating rule group {} failed: {}", spec.name(), e.toString(), e);
    }
  }

  /** Without readable history the alerts start afresh (and write ALERTS) rather than never. */
  private void restoreSafely(long ts) {
    try {
      restoreForState(ts);
    } catch (RuntimeException e) {
      log.error("restoring the for-state of group {} failed: {}", spec.name(), e.toString(), e);
      setShouldRestore(false);
    }
    shouldRestore = false;
  }

  /** Skips slots missed while the process was busy or asleep, like Prometheus. */
  private long nextSlot(long evalTs) {
    long missed = Math.max((options.clock().millis() - evalTs) / intervalMs - 1, 0);
    if (missed > 0) {
      synchronized (this) {
        counters = counters.missed(missed);
      }
    }
    return evalTs + (missed + 1) * intervalMs;
  }

  /**
   * Waits for the clock to reach {@code t}; false when stopped first. Polls so a test clock works.
   */
  private boolean waitUntil(long t) throws InterruptedException {
    while (true) {
      long left = t - options.clock().millis();
      if (left <= 0) {
        return stop.getCount() > 0;
      }
      if (stop.await(Math.min(left, 1000), TimeUnit.MILLISECONDS)) {
        return false;
      }
    }
  }

  /** Ends every series the group wrote, for a group that a reload removed. */
  private synchronized void markAllStale(long t) {
    List<Labels> all = new ArrayList<>();
    seriesInPreviousEval.forEach(all::addAll);
    writeStale(all, t);
  }
}
