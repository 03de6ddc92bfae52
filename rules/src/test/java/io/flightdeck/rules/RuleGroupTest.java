package io.flightdeck.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.engine.EngineOptions;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.SeriesSet;
import io.flightdeck.storage.StorageUnavailableException;
import io.flightdeck.testkit.ManualClock;
import io.flightdeck.tsdb.Tsdb;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Evaluation semantics, against the embedded TSDB, triggered explicitly at chosen times. */
class RuleGroupTest {
  private static final long M = 60_000;

  @TempDir Path dir;
  private Tsdb db;
  private final ManualClock clock = new ManualClock(0);
  private final Engine engine = new Engine(EngineOptions.DEFAULT);
  private final List<Alert> sent = new ArrayList<>();

  @BeforeEach
  void open() {
    db = TestStorage.open(dir);
  }

  @AfterEach
  void close() throws Exception {
    db.close();
  }

  private RuleGroup group(String yaml) {
    return group(yaml, RuleQuery.engine(engine, db));
  }

  private RuleGroup group(String yaml, RuleQuery query) {
    RuleManagerOptions options =
        RuleManagerOptions.defaults(db, db, query, (expr, alerts) -> sent.addAll(alerts))
            .withClock(clock)
            .withExternal(Map.of("cluster", "eu"), "http://fd");
    return new RuleGroup(
        RuleFileParser.parse("rules.yml", yaml).groups().getFirst(), "rules.yml", options);
  }

  private void add(Labels labels, long t, double v) {
    Appender app = db.appender();
    app.append(0, labels, t, v);
    app.commit();
  }

  private void eval(RuleGroup g, long t) {
    clock.set(t);
    g.eval(t);
  }

  /** Every stored sample of the series matching {@code name} (and labels), by series. */
  private Map<Labels, List<String>> raw(String name, String... labels) {
    List<Matcher> matchers = new ArrayList<>(List.of(Matcher.equal("__name__", name)));
    for (int i = 0; i < labels.length; i += 2) {
      matchers.add(Matcher.equal(labels[i], labels[i + 1]));
    }
    Map<Labels, List<String>> out = new TreeMap<>();
    try (Querier q = db.querier(Long.MIN_VALUE / 2, Long.MAX_VALUE / 2)) {
      SeriesSet set = q.select(true, matchers.toArray(Matcher[]::new));
      while (set.next()) {
        List<String> samples = new ArrayList<>();
        SampleIterator it = set.at().iterator(null);
        while (it.next()) {
          String v = StaleMarker.is(it.value()) ? "stale" : GoFormat.value(it.value());
          samples.add(it.timestamp() / 1000 + "s=" + v);
        }
        out.put(set.at().labels(), samples);
      }
    }
    return out;
  }

  @Test
  void laterRulesSeeEarlierResultsAndVanishedSeriesGetStaleMarkers() {
    RuleGroup g =
        group(
            """
            groups:
              - name: g
                labels: {team: ml}
                rules:
                  - record: job:x:sum
                    expr: sum by (job) (x)
                  - record: job:x:double
                    expr: job:x:sum * 2
                    labels: {team: infra}
            """);
    add(Labels.of("__name__", "x", "job", "a"), 0, 1);
    add(Labels.of("__name__", "x", "job", "b"), 0, 5);
    eval(g, M);
    add(Labels.of("__name__", "x", "job", "a"), 2 * M, 3);
    add(Labels.of("__name__", "x", "job", "b"), 2 * M, StaleMarker.VALUE);
    eval(g, 2 * M);

    assertThat(raw("job:x:sum"))
        .containsExactly(
            Map.entry(
                Labels.of("__name__", "job:x:sum", "job", "a", "team", "ml"),
                List.of("60s=1", "120s=3")),
            Map.entry(
                Labels.of("__name__", "job:x:sum", "job", "b", "team", "ml"),
                List.of("60s=5", "120s=stale")));
    assertThat(raw("job:x:double", "job", "a"))
        .containsExactly(
            Map.entry(
                Labels.of("__name__", "job:x:double", "job", "a", "team", "infra"),
                List.of("60s=2", "120s=6")));
    assertThat(g.snapshot().rules()).extracting(RuleSnapshot::health).containsOnly(RuleHealth.OK);
  }

  @Test
  void alertGoesPendingFiringResolvedAndIsForgottenAfter15Minutes() {
    RuleGroup g =
        group(
            """
            groups:
              - name: g
                rules:
                  - alert: High
                    expr: x > 10
                    for: 2m
                    labels: {severity: page}
                    annotations:
                      summary: "{{ $labels.i }} is {{ $value }} ({{ $externalLabels.cluster }})"
            """);
    g.restoreForState(0);
    Labels x = Labels.of("__name__", "x", "i", "1");
    for (long t = 0; t <= 4 * M; t += M) {
      add(x, t, 20);
    }
    add(x, 5 * M, StaleMarker.VALUE);

    eval(g, 0);
    eval(g, M);
    assertThat(alert(g).state()).isEqualTo(AlertState.PENDING);
    assertThat(sent).isEmpty();

    eval(g, 2 * M);
    Alert firing = alert(g);
    assertThat(firing.state()).isEqualTo(AlertState.FIRING);
    assertThat(firing.labels())
        .isEqualTo(Labels.of("alertname", "High", "i", "1", "severity", "page"));
    assertThat(firing.annotations()).containsExactly(Map.entry("summary", "1 is 20 (eu)"));
    assertThat(firing.activeAtMs()).isZero();
    assertThat(firing.firedAtMs()).isEqualTo(2 * M);
    assertThat(sent).hasSize(1);
    assertThat(sent.getFirst().validUntilMs()).isEqualTo(6 * M);

    eval(g, 3 * M);
    assertThat(sent).as("not re-sent within the resend delay").hasSize(1);
    eval(g, 4 * M);
    assertThat(sent).as("re-sent after the resend delay").hasSize(2);

    eval(g, 5 * M);
    Alert resolved = sent.getLast();
    assertThat(sent).hasSize(3);
    assertThat(resolved.state()).isEqualTo(AlertState.INACTIVE);
    assertThat(resolved.resolvedAtMs()).isEqualTo(5 * M);
    assertThat(g.snapshot().rules().getFirst().alerts()).isEmpty();

    eval(g, 6 * M);
    assertThat(sent).as("resolved alerts are re-sent with the resend delay").hasSize(3);
    eval(g, 7 * M);
    assertThat(sent).hasSize(4);

    assertThat(raw("ALERTS"))
        .containsExactly(
            Map.entry(
                Labels.of(
                    "__name__",
                    "ALERTS",
                    "alertname",
                    "High",
                    "alertstate",
                    "firing",
                    "i",
                    "1",
                    "severity",
                    "page"),
                List.of("120s=1", "180s=1", "240s=1", "300s=stale")),
            Map.entry(
                Labels.of(
                    "__name__",
                    "ALERTS",
                    "alertname",
                    "High",
                    "alertstate",
                    "pending",
                    "i",
                    "1",
                    "severity",
                    "page"),
                List.of("0s=1", "60s=1", "120s=stale")));
    assertThat(raw("ALERTS_FOR_STATE").values())
        .containsExactly(List.of("0s=0", "60s=0", "120s=0", "180s=0", "240s=0", "300s=stale"));

    AlertingRule rule = (AlertingRule) g.rules.getFirst();
    eval(g, 5 * M + 15 * M);
    assertThat(rule.active).hasSize(1);
    eval(g, 5 * M + 16 * M);
    assertThat(rule.active).isEmpty();
  }

  @Test
  void keepFiringForHoldsAFiringAlertAfterItsSeriesVanished() {
    RuleGroup g =
        group(
            """
            groups:
              - name: g
                rules:
                  - alert: High
                    expr: x > 10
                    keep_firing_for: 3m
            """);
    g.restoreForState(0);
    add(Labels.of("__name__", "x"), 0, 20);
    add(Labels.of("__name__", "x"), M, StaleMarker.VALUE);
    eval(g, 0);
    assertThat(alert(g).state()).isEqualTo(AlertState.FIRING);
    eval(g, M);
    eval(g, 2 * M);
    assertThat(alert(g).state()).isEqualTo(AlertState.FIRING);
    assertThat(alert(g).keepFiringSinceMs()).isEqualTo(M);
    eval(g, 4 * M);
    assertThat(g.snapshot().rules().getFirst().alerts()).isEmpty();
    assertThat(sent.getLast().resolvedAtMs()).isEqualTo(4 * M);
  }

  @Test
  void aFailingRuleIsUnhealthyAndTheGroupContinues() {
    RuleQuery engineQuery = RuleQuery.engine(engine, db);
    RuleQuery query =
        (expr, t) -> {
          if (expr.toString().contains("explode")) {
            throw new IllegalStateException("query timed out in expression evaluation");
          }
          return engineQuery.query(expr, t);
        };
    RuleGroup g =
        group(
            """
            groups:
              - name: g
                rules:
                  - record: a
                    expr: vector(1)
                  - record: b
                    expr: explode
                  - record: c
                    expr: vector(3)
            """,
            query);
    eval(g, M);
    List<RuleSnapshot> rules = g.snapshot().rules();
    assertThat(rules)
        .extracting(RuleSnapshot::health)
        .containsExactly(RuleHealth.OK, RuleHealth.ERR, RuleHealth.OK);
    assertThat(rules.get(1).lastError()).isEqualTo("query timed out in expression evaluation");
    assertThat(rules.get(1).lastEvaluationMs()).isEqualTo(M);
    assertThat(raw("a").values()).containsExactly(List.of("60s=1"));
    assertThat(raw("c").values()).containsExactly(List.of("60s=3"));
  }

  @Test
  void storageAndSinkFailuresDoNotStopTheGroup() {
    RuleManagerOptions options =
        RuleManagerOptions.defaults(
                () -> {
                  throw new StorageUnavailableException("disk full", null);
                },
                db,
                RuleQuery.engine(engine, db),
                (expr, alerts) -> {
                  throw new IllegalStateException("notifier down");
                })
            .withClock(clock);
    RuleGroup g =
        new RuleGroup(
            RuleFileParser.parse(
                    "rules.yml",
                    """
                    groups:
                      - name: g
                        rules:
                          - alert: Always
                            expr: vector(1)
                          - record: r
                            expr: vector(2)
                    """)
                .groups()
                .getFirst(),
            "rules.yml",
            options);
    eval(g, M);
    assertThat(g.snapshot().rules())
        .extracting(RuleSnapshot::health, RuleSnapshot::lastError)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(RuleHealth.ERR, "disk full"),
            org.assertj.core.groups.Tuple.tuple(RuleHealth.ERR, "disk full"));
    assertThat(alert(g).state()).isEqualTo(AlertState.FIRING);
  }

  @Test
  void limitsAndDuplicateLabelSetsFailTheRule() {
    add(Labels.of("__name__", "x", "i", "1"), 0, 1);
    add(Labels.of("__name__", "x", "i", "2"), 0, 2);
    RuleGroup g =
        group(
            """
            groups:
              - name: g
                limit: 1
                rules:
                  - record: r
                    expr: x
                  - alert: A
                    expr: x
            """);
    g.restoreForState(0);
    eval(g, M);
    assertThat(g.snapshot().rules())
        .extracting(RuleSnapshot::lastError)
        .containsExactly("exceeded limit 1 with 2 series", "exceeded limit of 1 with 2 alerts");
    assertThat(((AlertingRule) g.rules.get(1)).active).isEmpty();

    RuleGroup dup =
        group(
            """
            groups:
              - name: g
                rules:
                  - record: r
                    expr: x
                    labels: {i: same}
                  - alert: A
                    expr: x
                    labels: {i: same}
            """);
    eval(dup, M);
    assertThat(dup.snapshot().rules())
        .extracting(RuleSnapshot::lastError)
        .containsExactly(
            "vector contains metrics with the same labelset after applying rule labels",
            "vector contains metrics with the same labelset after applying alert labels");
  }

  @Test
  void forStateIsRestoredAfterARestart() {
    String rules =
        """
        groups:
          - name: g
            rules:
              - alert: Slow
                expr: x > 10
                for: 30m
        """;
    Labels x = Labels.of("__name__", "x");
    for (long t = 0; t <= 60 * M; t += M) {
      add(x, t, 20);
    }
    RuleGroup before = group(rules);
    before.restoreForState(0);
    for (long t = 0; t <= 10 * M; t += M) {
      eval(before, t);
    }
    // The process was down from 10m to 20m; the new one evaluates, then restores.
    RuleGroup after = group(rules);
    eval(after, 20 * M);
    after.restoreForState(20 * M);
    assertThat(alert(after).activeAtMs()).as("activeAt moved by the outage").isEqualTo(10 * M);
    eval(after, 39 * M);
    assertThat(alert(after).state()).isEqualTo(AlertState.PENDING);
    eval(after, 40 * M);
    assertThat(alert(after).state()).isEqualTo(AlertState.FIRING);
  }

  @Test
  void anAlertAboutToFireGetsTheGracePeriodAfterARestart() {
    String rules =
        """
        groups:
          - name: g
            rules:
              - alert: Slow
                expr: x > 10
                for: 30m
        """;
    Labels x = Labels.of("__name__", "x");
    for (long t = 0; t <= 60 * M; t += M) {
      add(x, t, 20);
    }
    RuleGroup before = group(rules);
    before.restoreForState(0);
    for (long t = 0; t <= 25 * M; t += M) {
      eval(before, t);
    }
    RuleGroup after = group(rules);
    eval(after, 30 * M);
    after.restoreForState(30 * M);
    assertThat(alert(after).activeAtMs())
        .as("fires 10m (grace) after the restart")
        .isEqualTo(10 * M);
  }

  @Test
  void queryOffsetShiftsQueriesAndWrites() {
    add(Labels.of("__name__", "x"), 2 * M, 7);
    add(Labels.of("__name__", "x"), 3 * M, 8);
    RuleGroup g =
        group(
            """
            groups:
              - name: g
                query_offset: 1m
                rules:
                  - record: r
                    expr: x
            """);
    eval(g, 3 * M);
    assertThat(raw("r").values()).containsExactly(List.of("120s=7"));
  }

  @Test
  void evaluationSlotsAreOffsetByTheGroupHash() {
    RuleGroup g = group("groups:\n  - name: g\n    interval: 1m\n    rules: []\n");
    RuleGroup h = group("groups:\n  - name: h\n    interval: 1m\n    rules: []\n");
    long now = 1_700_000_012_345L;
    long slot = g.evalTimestamp(now);
    assertThat(slot).isBetween(now - M + 1, now);
    assertThat(g.evalTimestamp(now + M)).isEqualTo(slot + M);
    assertThat(g.evalTimestamp(slot)).isEqualTo(slot);
    assertThat(Math.floorMod(h.evalTimestamp(now), M)).isNotEqualTo(Math.floorMod(slot, M));
  }

  private static Alert alert(RuleGroup g) {
    List<Alert> alerts = g.snapshot().rules().getFirst().alerts();
    assertThat(alerts).hasSize(1);
    return alerts.getFirst();
  }
}
