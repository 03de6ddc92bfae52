package io.flightdeck.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.engine.EngineOptions;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.SeriesSet;
import io.flightdeck.testkit.ManualClock;
import io.flightdeck.tsdb.Tsdb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loading globs, all-or-nothing reloads that keep state, and the group threads. */
class RuleManagerTest {
  private static final String ALERT_GROUP =
      """
      groups:
        - name: alerts
          rules:
            - alert: Always
              expr: vector(1) > 0
              for: 10m
      """;
  private static final String RECORD_GROUP =
      """
      groups:
        - name: records
          rules:
            - record: one
              expr: vector(1)
      """;

  @TempDir Path dir;
  @TempDir Path dbDir;
  private Tsdb db;
  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final List<Alert> sent = new ArrayList<>();
  private RuleManager manager;

  @BeforeEach
  void open() {
    db = TestStorage.open(dbDir);
    manager = manager(AlertSink.NONE);
  }

  private RuleManager manager(AlertSink sink) {
    return new RuleManager(
        RuleManagerOptions.defaults(
                db, db, RuleQuery.engine(new Engine(EngineOptions.DEFAULT), db), sink)
            .withClock(clock)
            .withEvaluationInterval(Duration.ofSeconds(30)));
  }

  @AfterEach
  void close() throws Exception {
    manager.close();
    db.close();
  }

  private void write(String name, String content) throws IOException {
    Files.writeString(dir.resolve(name), content);
  }

  private List<String> glob() {
    return List.of(dir + "/*.yml");
  }

  @Test
  void loadsEveryFileOfTheGlobInOrder() throws Exception {
    write("b.yml", RECORD_GROUP);
    write("a.yml", ALERT_GROUP);
    write("ignored.txt", "not rules");
    manager.update(List.of(dir + "/*.yml", dir + "/missing.yml"));
    assertThat(manager.snapshot())
        .extracting(GroupSnapshot::name, GroupSnapshot::file, GroupSnapshot::intervalSeconds)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("alerts", dir.resolve("a.yml").toString(), 30.0),
            org.assertj.core.groups.Tuple.tuple("records", dir.resolve("b.yml").toString(), 30.0));
  }

  @Test
  void anInvalidFileLeavesTheOldRulesActive() throws Exception {
    write("a.yml", ALERT_GROUP);
    manager.update(glob());
    write("c.yml", "groups:\n  - name: x\n    rules:\n      - record: r\n        expr: sum(\n");
    RuleFileException e =
        catchThrowableOfType(RuleFileException.class, () -> manager.update(glob()));
    assertThat(e.errors())
        .containsExactly(
            dir.resolve("c.yml")
                + ": 5:15: group \"x\", rule 1, \"r\": could not parse expression: 1:5: parse error: unclosed left parenthesis");
    assertThat(manager.snapshot()).extracting(GroupSnapshot::name).containsExactly("alerts");
  }

  @Test
  void unchangedGroupsKeepRunningAndChangedOnesKeepTheirAlerts() throws Exception {
    write("a.yml", ALERT_GROUP);
    write("b.yml", RECORD_GROUP);
    manager.update(glob());
    RuleGroup alerts = manager.groups().get(0);
    RuleGroup records = manager.groups().get(1);
    alerts.eval(clock.millis());
    long activeAt =
        manager.snapshot().getFirst().rules().getFirst().alerts().getFirst().activeAtMs();

    write("b.yml", RECORD_GROUP.replace("vector(1)", "vector(2)"));
    manager.update(glob());
    assertThat(manager.groups().get(0)).isSameAs(alerts);
    assertThat(manager.groups().get(1)).isNotSameAs(records);

    write("a.yml", ALERT_GROUP + "      - record: extra\n        expr: vector(3)\n");
    manager.update(glob());
    assertThat(manager.groups().get(0)).isNotSameAs(alerts);
    assertThat(manager.snapshot().getFirst().rules().getFirst().alerts())
        .extracting(Alert::activeAtMs)
        .containsExactly(activeAt);
  }

  @Test
  void onlyGroupsLoadedAtStartupWaitToRestoreTheirForState() throws Exception {
    write("a.yml", ALERT_GROUP);
    manager.update(glob());
    assertThat(((AlertingRule) manager.groups().get(0).rules.getFirst()).restored).isFalse();
    write("b.yml", ALERT_GROUP.replace("name: alerts", "name: later"));
    manager.update(glob());
    assertThat(((AlertingRule) manager.groups().get(1).rules.getFirst()).restored).isTrue();
  }

  @Test
  void aRemovedGroupMarksItsSeriesStale() throws Exception {
    write("b.yml", RECORD_GROUP);
    manager.update(glob());
    manager.groups().getFirst().eval(clock.millis());
    Files.delete(dir.resolve("b.yml"));
    clock.advance(Duration.ofSeconds(10));
    manager.update(glob());
    assertThat(manager.snapshot()).isEmpty();
    assertThat(lastValueIsStale("one")).isTrue();
  }

  @Test
  void groupsRunOnNamedThreadsThatEvaluateOnTheClock() throws Exception {
    CountDownLatch fired = new CountDownLatch(1);
    manager = manager((expr, alerts) -> fired.countDown());
    write("a.yml", ALERT_GROUP.replace("for: 10m", "for: 0s"));
    manager.update(glob());
    manager.start();
    Thread thread = manager.groups().getFirst().thread();
    assertThat(thread.getName()).isEqualTo("rules-alerts");
    assertThat(thread.isAlive()).isTrue();
    clock.advance(Duration.ofMinutes(1));
    assertThat(fired.await(30, TimeUnit.SECONDS)).isTrue();
    manager.close();
    assertThat(thread.isAlive()).isFalse();
  }

  @Test
  void aReloadTakesANewEvaluationIntervalAndExternalLabels() throws Exception {
    write(
        "a.yml",
        ALERT_GROUP
            + "      - alert: Labelled\n        expr: vector(1)\n"
            + "        labels:\n          site: '{{ $externalLabels.cluster }}'\n");
    manager.update(glob(), Duration.ofSeconds(30), Duration.ZERO, java.util.Map.of("cluster", "a"));
    RuleGroup before = manager.groups().getFirst();
    before.eval(clock.millis());

    manager.update(glob(), Duration.ofSeconds(30), Duration.ZERO, java.util.Map.of("cluster", "a"));
    assertThat(manager.groups().getFirst()).as("nothing changed").isSameAs(before);

    manager.update(glob(), Duration.ofSeconds(15), Duration.ZERO, java.util.Map.of("cluster", "b"));
    RuleGroup after = manager.groups().getFirst();
    assertThat(after).isNotSameAs(before);
    assertThat(manager.snapshot().getFirst().intervalSeconds()).isEqualTo(15.0);
    after.eval(clock.millis());
    assertThat(manager.snapshot().getFirst().rules().get(1).alerts())
        .extracting(a -> a.labels().get("site"))
        .containsExactly("b");
    assertThat(manager.snapshot().getFirst().counters().iterations())
        .as("counters carry over a restart of the group")
        .isEqualTo(2);
  }

  @Test
  void theGlobalQueryOffsetAppliesToGroupsWithoutTheirOwn() throws Exception {
    write("own.yml", RECORD_GROUP.replace("  - name:", "  - query_offset: 5s\n    name:"));
    write("plain.yml", RECORD_GROUP.replace("name: ", "name: plain_"));

    manager.update(glob(), Duration.ofSeconds(30), Duration.ofMinutes(1), java.util.Map.of());

    assertThat(manager.groups())
        .extracting(g -> g.queryOffsetMs)
        .containsExactlyInAnyOrder(5_000L, 60_000L);
  }

  @Test
  void aBrokenReloadKeepsTheOldGlobalSettings() throws Exception {
    write("b.yml", RECORD_GROUP);
    manager.update(glob(), Duration.ofSeconds(20), Duration.ZERO, java.util.Map.of());
    write("c.yml", "groups: [");
    catchThrowableOfType(
        RuleFileException.class,
        () -> manager.update(glob(), Duration.ofSeconds(5), Duration.ZERO, java.util.Map.of()));
    Files.delete(dir.resolve("c.yml"));
    write("b.yml", RECORD_GROUP.replace("vector(1)", "vector(2)"));
    manager.update(glob());
    assertThat(manager.snapshot().getFirst().intervalSeconds())
        .as("the refused reload's interval was not taken")
        .isEqualTo(20.0);
  }

  @Test
  void countersCountEvaluationsFailuresAndIterations() throws Exception {
    write(
        "b.yml",
        RECORD_GROUP
            + "      - record: broken\n        expr: label_replace(vector(1), \"x\", \"$1\","
            + " \"y\", \"(\")\n");
    manager.update(glob());
    RuleGroup group = manager.groups().getFirst();
    group.eval(clock.millis());
    clock.advance(Duration.ofSeconds(30));
    group.eval(clock.millis());
    GroupCounters counters = manager.snapshot().getFirst().counters();
    assertThat(counters.iterations()).isEqualTo(2);
    assertThat(counters.evaluations()).isEqualTo(4);
    assertThat(counters.evaluationFailures()).isEqualTo(2);
  }

  private boolean lastValueIsStale(String name) {
    try (Querier q = db.querier(0, Long.MAX_VALUE / 2)) {
      SeriesSet set = q.select(false, Matcher.equal(Labels.METRIC_NAME, name));
      assertThat(set.next()).isTrue();
      SampleIterator it = set.at().iterator(null);
      double last = 0;
      while (it.next()) {
        last = it.value();
      }
      return StaleMarker.is(last);
    }
  }
}
