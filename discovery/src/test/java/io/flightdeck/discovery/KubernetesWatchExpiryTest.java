package io.flightdeck.discovery;

import static io.flightdeck.discovery.DiscovererContractTest.next;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.flightdeck.config.KubernetesSdConfig;
import io.flightdeck.config.KubernetesSdConfig.Namespaces;
import io.flightdeck.config.KubernetesSdConfig.Role;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Watches that end, against fabric8's mock API server with scripted answers: an expired resource
 * version ("410 Gone") leads to a fresh list and a watch from its version; a server that cannot
 * watch leaves the poll to find changes.
 */
@EnableKubernetesMockClient(crud = false, https = false)
class KubernetesWatchExpiryTest {
  private static final String WATCH = "/api/v1/pods?watch=true&allowWatchBookmarks=true";

  static KubernetesClient client;
  static KubernetesMockServer server;
  private Discoverer discoverer;

  @AfterEach
  void close() {
    discoverer.close();
  }

  private BlockingQueue<List<TargetGroup>> start(Duration poll) {
    URI api = URI.create(client.getMasterUrl().toString());
    discoverer =
        new KubernetesDiscoverer(
            "test", new KubernetesSdConfig(Role.POD, api, null, Namespaces.ALL, List.of()), poll);
    BlockingQueue<List<TargetGroup>> updates = new LinkedBlockingQueue<>();
    discoverer.start(updates::add);
    return updates;
  }

  private static Pod pod(String name) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace("train")
        .withName(name)
        .endMetadata()
        .build();
  }

  private static String watchFrom(String resourceVersion) {
    return WATCH.replace("watch=true", "watch=true&resourceVersion=" + resourceVersion);
  }

  private static List<String> sources(List<TargetGroup> groups) {
    return groups.stream().map(TargetGroup::source).toList();
  }

  @Test
  void anExpiredWatchIsFollowedByAFreshListAndAWatchFromItsVersion() throws Exception {
    server
        .expect()
        .get()
        .withPath("/api/v1/pods")
        .andReturn(
            200,
            new PodListBuilder()
                .withNewMetadata()
                .withResourceVersion("100")
                .endMetadata()
                .withItems(pod("lora-0"))
                .build())
        .once();
    server
        .expect()
        .get()
        .withPath(watchFrom("100"))
        .andUpgradeToWebSocket()
        .open()
        .waitFor(100)
        .andEmit(
            new WatchEvent(
                new StatusBuilder()
                    .withStatus("Failure")
                    .withCode(410)
                    .withReason("Expired")
                    .withMessage("too old resource version: 100 (200)")
                    .build(),
                "ERROR"))
        .done()
        .once();
    server
        .expect()
        .get()
        .withPath("/api/v1/pods")
        .andReturn(
            200,
            new PodListBuilder()
                .withNewMetadata()
                .withResourceVersion("200")
                .endMetadata()
                .withItems(pod("lora-1"))
                .build())
        .once();
    server
        .expect()
        .get()
        .withPath(watchFrom("200"))
        .andUpgradeToWebSocket()
        .open()
        .waitFor(100)
        .andEmit(new WatchEvent(pod("lora-2"), "ADDED"))
        .done()
        .once();

    // The poll is an hour away: only the 410 can bring the second list.
    BlockingQueue<List<TargetGroup>> updates = start(Duration.ofHours(1));

    assertThat(sources(next(updates))).containsExactly("pod/train/lora-0");
    assertThat(sources(next(updates))).containsExactly("pod/train/lora-1");
    assertThat(sources(next(updates))).containsExactly("pod/train/lora-1", "pod/train/lora-2");
    assertThat(discoverer.lastError()).isEmpty();
  }

  @Test
  void withoutWatchesThePollStillFindsChanges() throws Exception {
    // No watch is expected: the mock server answers it 404.
    server
        .expect()
        .get()
        .withPath("/api/v1/pods")
        .andReturn(200, new PodListBuilder().withItems(pod("lora-0")).build())
        .once();
    server
        .expect()
        .get()
        .withPath("/api/v1/pods")
        .andReturn(200, new PodListBuilder().withItems(pod("lora-1")).build())
        .always();

    BlockingQueue<List<TargetGroup>> updates = start(KubernetesFixtures.POLL);

    assertThat(sources(next(updates))).containsExactly("pod/train/lora-0");
    assertThat(sources(next(updates))).containsExactly("pod/train/lora-1");
  }
}
