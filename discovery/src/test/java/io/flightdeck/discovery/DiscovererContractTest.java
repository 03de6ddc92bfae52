package io.flightdeck.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What every {@link Discoverer} must do; each implementation's test extends this. */
abstract class DiscovererContractTest {
  /**
   * Longer than the 30 s for which fabric8's mock API server can stall ({@link
   * KubernetesFixtures}): at 20 s such a stall failed a Kubernetes test whose discoverer reported
   * its first update right after (CI at {@code 0094a25}, 30.0 s in all).
   */
  static final Duration WAIT = Duration.ofSeconds(45);

  /** A group as a source would declare it. */
  record Declared(List<String> addresses, Map<String, String> labels) {}

  private final List<Discoverer> started = new ArrayList<>();

  /**
   * A discoverer, not yet started, whose source holds exactly {@code groups}: each group's targets
   * share a host and differ in port.
   */
  abstract Discoverer create(List<Declared> groups) throws Exception;

  /** The name under which a declared group label is reported; Kubernetes prefixes it. */
  String reportedLabel(String declared) {
    return declared;
  }

  /** Starts {@code discoverer}, collecting what it reports; closed after the test. */
  BlockingQueue<List<TargetGroup>> start(Discoverer discoverer) {
    BlockingQueue<List<TargetGroup>> updates = new LinkedBlockingQueue<>();
    started.add(discoverer);
    discoverer.start(updates::add);
    return updates;
  }

  static List<TargetGroup> next(BlockingQueue<List<TargetGroup>> updates)
      throws InterruptedException {
    List<TargetGroup> groups = updates.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(groups).as("an update within %s", WAIT).isNotNull();
    return groups;
  }

  /**
   * Waits until {@code discoverer} has reached its steady state after its first update; nothing to
   * wait for unless a source needs it (Kubernetes: its watches open).
   */
  void awaitSteadyState(Discoverer discoverer) throws InterruptedException {}

  @AfterEach
  void closeAll() throws InterruptedException {
    for (Discoverer discoverer : started) {
      awaitSteadyState(discoverer);
      discoverer.close();
    }
  }

  @Test
  void reportsEveryTargetWithItsGroupLabels() throws Exception {
    List<TargetGroup> groups =
        next(
            start(
                create(
                    List.of(
                        new Declared(
                            List.of("10.0.0.1:8080", "10.0.0.1:9090"), Map.of("rack", "a")),
                        new Declared(List.of("gpu-node-1:9400"), Map.of("rack", "b"))))));

    assertThat(groups).hasSize(2);
    assertThat(groups.get(0).targets())
        .extracting(t -> Labels.of("__address__", t.get("__address__")))
        .containsExactly(
            Labels.of("__address__", "10.0.0.1:8080"), Labels.of("__address__", "10.0.0.1:9090"));
    assertThat(groups.get(0).labels().get(reportedLabel("rack"))).isEqualTo("a");
    assertThat(groups.get(1).targets())
        .extracting(t -> t.get("__address__"))
        .containsExactly("gpu-node-1:9400");
    assertThat(groups.get(1).labels().get(reportedLabel("rack"))).isEqualTo("b");
  }

  @Test
  void groupsHaveDistinctSources() throws Exception {
    List<TargetGroup> groups =
        next(
            start(
                create(
                    List.of(
                        new Declared(List.of("a:1"), Map.of()),
                        new Declared(List.of("b:1"), Map.of()),
                        new Declared(List.of("c:1"), Map.of())))));

    Set<String> sources = new HashSet<>();
    groups.forEach(g -> sources.add(g.source()));
    assertThat(sources).hasSize(3).doesNotContain("");
  }

  @Test
  void anEmptySourceIsReportedAsNoGroupsOrEmptyGroups() throws Exception {
    Discoverer discoverer = create(List.of());
    List<TargetGroup> groups = next(start(discoverer));

    assertThat(groups).allSatisfy(g -> assertThat(g.targets()).isEmpty());
    assertThat(discoverer.lastError()).isEmpty();
  }

  @Test
  void closeStopsUpdatesAndMayBeRepeated() throws Exception {
    Discoverer discoverer = create(List.of(new Declared(List.of("a:1"), Map.of())));
    BlockingQueue<List<TargetGroup>> updates = start(discoverer);
    next(updates);
    awaitSteadyState(discoverer);

    discoverer.close();
    discoverer.close();
    started.remove(discoverer);
    updates.clear();

    assertThat(updates.poll(300, TimeUnit.MILLISECONDS)).isNull();
  }
}
