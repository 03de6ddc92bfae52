package io.flightdeck.discovery;

import static io.flightdeck.discovery.DiscovererContractTest.WAIT;
import static io.flightdeck.discovery.DiscovererContractTest.next;
import static io.flightdeck.discovery.KubernetesFixtures.awaitWatchesSettled;
import static io.flightdeck.discovery.KubernetesFixtures.containerPort;
import static io.flightdeck.discovery.KubernetesFixtures.pod;
import static io.flightdeck.discovery.KubernetesFixtures.podRef;
import static io.flightdeck.discovery.KubernetesFixtures.service;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EndpointsBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.flightdeck.config.KubernetesSdConfig;
import io.flightdeck.config.KubernetesSdConfig.Namespaces;
import io.flightdeck.config.KubernetesSdConfig.Role;
import io.flightdeck.config.KubernetesSdConfig.Selector;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Changes that arrive through watches, against fabric8's mock API server in CRUD mode: the poll is
 * an hour away, so only a watch can report them. The mock server does not replay events from a
 * resource version, so each test waits until its watches are open before changing anything.
 */
@EnableKubernetesMockClient(crud = true, https = false)
class KubernetesWatchTest {
  private static final Duration NEVER = Duration.ofHours(1);

  /** A fresh mock API server per test: see {@link KubernetesFixtures}. */
  KubernetesClient client;

  KubernetesMockServer server;
  private final List<Discoverer> started = new ArrayList<>();
  private List<TargetGroup> last = List.of();

  @AfterEach
  void close() throws InterruptedException {
    for (Discoverer discoverer : started) {
      awaitWatchesSettled(discoverer);
      discoverer.close();
    }
  }

  private BlockingQueue<List<TargetGroup>> start(Role role, List<Selector> selectors)
      throws InterruptedException {
    URI api = URI.create(client.getMasterUrl().toString());
    Discoverer discoverer =
        new KubernetesDiscoverer(
            "test", new KubernetesSdConfig(role, api, null, Namespaces.ALL, selectors), NEVER);
    started.add(discoverer);
    BlockingQueue<List<TargetGroup>> updates = new LinkedBlockingQueue<>();
    discoverer.start(updates::add);
    return updates;
  }

  /** Waits until the mock server has received {@code count} watch requests; returns their paths. */
  private List<String> awaitWatches(int count) throws InterruptedException {
    List<String> watches = new ArrayList<>();
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (watches.size() < count && System.nanoTime() < deadline) {
      RecordedRequest request = server.takeRequest(100, TimeUnit.MILLISECONDS);
      if (request != null && request.getPath().contains("watch=true")) {
        watches.add(request.getPath());
      }
    }
    assertThat(watches).as("watch requests").hasSize(count);
    return watches;
  }

  @Test
  void podsComeChangeAndGoThroughTheWatch() throws Exception {
    BlockingQueue<List<TargetGroup>> updates =
        start(Role.POD, List.of(new Selector(Role.POD, "app=ms-swift-train", null)));
    assertThat(next(updates)).isEmpty();
    assertThat(awaitWatches(1))
        .singleElement()
        .satisfies(
            path ->
                assertThat(path)
                    .startsWith("/api/v1/pods?watch=true&resourceVersion=")
                    .endsWith("&allowWatchBookmarks=true&labelSelector=app%3Dms-swift-train"));

    Map<String, String> app = Map.of("app", "ms-swift-train");
    client
        .pods()
        .inNamespace("train")
        .resource(pod("train", "redis", "10.1.2.9", true, Map.of("app", "redis"), List.of()))
        .create();
    client
        .pods()
        .inNamespace("train")
        .resource(pod("train", "lora-0", "10.1.2.3", true, app, List.of()))
        .create();
    List<TargetGroup> groups = next(updates);
    assertThat(groups).extracting(TargetGroup::source).containsExactly("pod/train/lora-0");

    client
        .pods()
        .inNamespace("train")
        .withName("lora-0")
        .edit(p -> new PodBuilder(p).editStatus().withPodIP("10.1.2.4").endStatus().build());
    assertThat(next(updates).get(0).targets().get(0).get("__address__")).isEqualTo("10.1.2.4");

    client.pods().inNamespace("train").withName("lora-0").delete();
    assertThat(next(updates)).isEmpty();
  }

  @Test
  void endpointTargetsFollowTheWatchedPods() throws Exception {
    BlockingQueue<List<TargetGroup>> updates = start(Role.ENDPOINTS, List.of());
    assertThat(next(updates)).isEmpty();
    assertThat(awaitWatches(3))
        .extracting(path -> path.substring(0, path.indexOf('?')))
        .containsExactlyInAnyOrder("/api/v1/services", "/api/v1/pods", "/api/v1/endpoints");

    Map<String, String> app = Map.of("app", "ms-swift-train");
    client
        .services()
        .inNamespace("train")
        .resource(service("train", "ms-swift-train", app, Map.of()))
        .create();
    client
        .pods()
        .inNamespace("train")
        .resource(
            pod("train", "lora-0", "10.1.2.3", true, app, List.of(containerPort("metrics", 8080))))
        .create();
    client
        .endpoints()
        .inNamespace("train")
        .resource(
            new EndpointsBuilder()
                .withNewMetadata()
                .withNamespace("train")
                .withName("ms-swift-train")
                .endMetadata()
                .addNewSubset()
                .addNewAddress()
                .withIp("10.1.2.3")
                .withTargetRef(podRef("train", "lora-0"))
                .endAddress()
                .addNewPort()
                .withName("metrics")
                .withPort(8080)
                .endPort()
                .endSubset()
                .build())
        .create();
    Await.until(() -> lastTargetLabel(updates, "__meta_kubernetes_pod_label_app") != null);

    client
        .pods()
        .inNamespace("train")
        .withName("lora-0")
        .edit(
            p -> new PodBuilder(p).editMetadata().addToLabels("step", "dpo").endMetadata().build());
    Await.until(() -> "dpo".equals(lastTargetLabel(updates, "__meta_kubernetes_pod_label_step")));
  }

  /** The label of the first target of the latest update, null if none. */
  private String lastTargetLabel(BlockingQueue<List<TargetGroup>> updates, String name) {
    List<TargetGroup> update;
    while ((update = updates.poll()) != null) {
      last = update;
    }
    if (last.isEmpty() || last.get(0).targets().isEmpty()) {
      return null;
    }
    return last.get(0).targets().get(0).get(name);
  }
}
