package io.flightdeck.discovery;

import static io.flightdeck.discovery.KubernetesFixtures.awaitWatchesSettled;
import static io.flightdeck.discovery.KubernetesFixtures.containerPort;
import static io.flightdeck.discovery.KubernetesFixtures.discoverer;
import static io.flightdeck.discovery.KubernetesFixtures.pod;
import static io.flightdeck.discovery.KubernetesFixtures.podRef;
import static io.flightdeck.discovery.KubernetesFixtures.service;
import static io.flightdeck.discovery.KubernetesFixtures.uid;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EndpointAddressBuilder;
import io.fabric8.kubernetes.api.model.Endpoints;
import io.fabric8.kubernetes.api.model.EndpointsBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.flightdeck.config.KubernetesSdConfig.Namespaces;
import io.flightdeck.config.KubernetesSdConfig.Role;
import io.flightdeck.config.KubernetesSdConfig.Selector;
import io.flightdeck.model.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.Test;

/** Role endpoints against fabric8's mock API server in CRUD mode. */
@EnableKubernetesMockClient(crud = true, https = false)
class KubernetesEndpointsDiscovererTest extends DiscovererContractTest {
  /** A fresh mock API server per test: see {@link KubernetesFixtures}. */
  KubernetesClient client;

  @Override
  Discoverer create(List<Declared> groups) {
    for (int i = 0; i < groups.size(); i++) {
      Declared group = groups.get(i);
      EndpointsBuilder endpoints =
          new EndpointsBuilder()
              .withNewMetadata()
              .withNamespace("default")
              .withName("g" + i)
              .withLabels(group.labels())
              .endMetadata();
      var subset = endpoints.addNewSubset();
      subset.addNewAddress().withIp(group.addresses().get(0).split(":")[0]).endAddress();
      for (String address : group.addresses()) {
        subset
            .addNewPort()
            .withPort(Integer.parseInt(address.split(":")[1]))
            .withProtocol("TCP")
            .endPort();
      }
      subset.endSubset();
      client.endpoints().inNamespace("default").resource(endpoints.build()).create();
    }
    return discoverer(client, Role.ENDPOINTS, Namespaces.ALL, List.of());
  }

  @Override
  void awaitSteadyState(Discoverer discoverer) throws InterruptedException {
    awaitWatchesSettled(discoverer);
  }

  @Override
  String reportedLabel(String declared) {
    return "__meta_kubernetes_endpoints_label_" + declared;
  }

  /** The Endpoints object of service ms-swift-train: lora-0 ready, lora-1 not. */
  private static Endpoints trainEndpoints(boolean lora1Ready) {
    EndpointsBuilder endpoints =
        new EndpointsBuilder()
            .withNewMetadata()
            .withNamespace("train")
            .withName("ms-swift-train")
            .withLabels(Map.of("app", "ms-swift-train"))
            .endMetadata();
    var subset = endpoints.addNewSubset();
    subset
        .addNewAddress()
        .withIp("10.1.2.3")
        .withNodeName("gpu-node-1")
        .withTargetRef(podRef("train", "lora-0"))
        .endAddress();
    var lora1 =
        new EndpointAddressBuilder()
            .withIp("10.1.2.4")
            .withNodeName("gpu-node-1")
            .withHostname("lora-1")
            .withTargetRef(podRef("train", "lora-1"))
            .build();
    if (lora1Ready) {
      subset.addToAddresses(lora1);
    } else {
      subset.addToNotReadyAddresses(lora1);
    }
    subset.addNewPort().withName("metrics").withPort(8080).withProtocol("TCP").endPort();
    subset.endSubset();
    return endpoints.build();
  }

  /** Prometheus's pod labels on an endpoints target whose address is the pod. */
  private static List<String> podLabels(String name, String ip, String ready, String uid) {
    return List.of(
        "__meta_kubernetes_pod_name", name,
        "__meta_kubernetes_pod_ip", ip,
        "__meta_kubernetes_pod_ready", ready,
        "__meta_kubernetes_pod_phase", "Running",
        "__meta_kubernetes_pod_node_name", "gpu-node-1",
        "__meta_kubernetes_pod_host_ip", "192.168.1.10",
        "__meta_kubernetes_pod_uid", uid,
        "__meta_kubernetes_pod_label_app", "ms-swift-train",
        "__meta_kubernetes_pod_labelpresent_app", "true");
  }

  private static List<String> container(String portName, String port) {
    return List.of(
        "__meta_kubernetes_pod_container_name", "trainer",
        "__meta_kubernetes_pod_container_image", "modelscope/ms-swift:3.4",
        "__meta_kubernetes_pod_container_port_name", portName,
        "__meta_kubernetes_pod_container_port_number", port,
        "__meta_kubernetes_pod_container_port_protocol", "TCP",
        "__meta_kubernetes_pod_container_init", "false");
  }

  @SafeVarargs
  private static Labels labels(List<String>... parts) {
    List<String> all = new ArrayList<>();
    for (List<String> part : parts) {
      all.addAll(part);
    }
    return Labels.of(all.toArray(new String[0]));
  }

  private static List<String> endpoint(
      String address, String ready, String pod, String... hostname) {
    List<String> labels =
        new ArrayList<>(
            List.of(
                "__address__", address,
                "__meta_kubernetes_endpoint_port_name", "metrics",
                "__meta_kubernetes_endpoint_port_protocol", "TCP",
                "__meta_kubernetes_endpoint_ready", ready,
                "__meta_kubernetes_endpoint_address_target_kind", "Pod",
                "__meta_kubernetes_endpoint_address_target_name", pod,
                "__meta_kubernetes_endpoint_node_name", "gpu-node-1"));
    if (hostname.length > 0) {
      labels.addAll(List.of("__meta_kubernetes_endpoint_hostname", hostname[0]));
    }
    return labels;
  }

  @Test
  void trainingPodsBehindAServiceLabelTheEndpointTargets() throws Exception {
    // Our users' case: pods labelled app=ms-swift-train behind a Service; the pods also listen on
    // a port the service does not expose (29500, torch.distributed), which Prometheus adds.
    Map<String, String> app = Map.of("app", "ms-swift-train");
    BlockingQueue<List<TargetGroup>> updates =
        start(discoverer(client, Role.ENDPOINTS, Namespaces.ALL, List.of()));
    assertThat(next(updates)).isEmpty();

    client
        .services()
        .inNamespace("train")
        .resource(service("train", "ms-swift-train", app, Map.of("prometheus.io/scrape", "true")))
        .create();
    for (String[] pod :
        new String[][] {{"lora-0", "10.1.2.3", "true"}, {"lora-1", "10.1.2.4", ""}}) {
      client
          .pods()
          .inNamespace("train")
          .resource(
              pod(
                  "train",
                  pod[0],
                  pod[1],
                  !pod[2].isEmpty(),
                  app,
                  List.of(containerPort("metrics", 8080), containerPort("dist", 29500))))
          .create();
    }
    client.endpoints().inNamespace("train").resource(trainEndpoints(false)).create();

    List<TargetGroup> groups = next(updates);
    String uid0 = uid(client, "train", "lora-0");
    String uid1 = uid(client, "train", "lora-1");
    assertThat(groups).hasSize(1);
    TargetGroup group = groups.get(0);
    assertThat(group.source()).isEqualTo("endpoints/train/ms-swift-train");
    assertThat(group.labels())
        .isEqualTo(
            Labels.of(
                "__meta_kubernetes_namespace", "train",
                "__meta_kubernetes_service_name", "ms-swift-train",
                "__meta_kubernetes_service_label_app", "ms-swift-train",
                "__meta_kubernetes_service_labelpresent_app", "true",
                "__meta_kubernetes_service_annotation_prometheus_io_scrape", "true",
                "__meta_kubernetes_service_annotationpresent_prometheus_io_scrape", "true",
                "__meta_kubernetes_endpoints_name", "ms-swift-train",
                "__meta_kubernetes_endpoints_label_app", "ms-swift-train",
                "__meta_kubernetes_endpoints_labelpresent_app", "true"));
    assertThat(group.targets())
        .containsExactly(
            labels(
                endpoint("10.1.2.3:8080", "true", "lora-0"),
                podLabels("lora-0", "10.1.2.3", "true", uid0),
                container("metrics", "8080")),
            labels(
                endpoint("10.1.2.4:8080", "false", "lora-1", "lora-1"),
                podLabels("lora-1", "10.1.2.4", "false", uid1),
                container("metrics", "8080")),
            labels(
                List.of("__address__", "10.1.2.3:29500"),
                podLabels("lora-0", "10.1.2.3", "true", uid0),
                container("dist", "29500")),
            labels(
                List.of("__address__", "10.1.2.4:29500"),
                podLabels("lora-1", "10.1.2.4", "false", uid1),
                container("dist", "29500")));

    // lora-1 becomes ready, then a pod label changes: both reach the endpoints targets.
    client
        .endpoints()
        .inNamespace("train")
        .withName("ms-swift-train")
        .edit(e -> trainEndpoints(true));
    assertThat(next(updates).get(0).targets().get(1).get("__meta_kubernetes_endpoint_ready"))
        .isEqualTo("true");
    client
        .pods()
        .inNamespace("train")
        .withName("lora-0")
        .edit(
            p -> new PodBuilder(p).editMetadata().addToLabels("step", "sft").endMetadata().build());
    assertThat(next(updates).get(0).targets().get(0).get("__meta_kubernetes_pod_label_step"))
        .isEqualTo("sft");

    client.endpoints().inNamespace("train").withName("ms-swift-train").delete();
    assertThat(next(updates)).isEmpty();
  }

  @Test
  void namespacesAndSelectorsRestrictWhatIsListed() throws Exception {
    Map<String, String> app = Map.of("app", "ms-swift-train");
    for (String namespace : List.of("train", "other")) {
      client
          .pods()
          .inNamespace(namespace)
          .resource(
              pod(namespace, "lora-0", "10.1.2.3", true, app, List.of(containerPort("m", 8080))))
          .create();
      for (String tier : List.of("gpu", "cpu")) {
        Endpoints endpoints = trainEndpoints(true);
        endpoints.getMetadata().setNamespace(namespace);
        endpoints.getMetadata().setName("ep-" + tier);
        endpoints.getMetadata().setLabels(Map.of("tier", tier));
        endpoints
            .getSubsets()
            .get(0)
            .getAddresses()
            .get(0)
            .setTargetRef(podRef(namespace, "lora-0"));
        client.endpoints().inNamespace(namespace).resource(endpoints).create();
      }
    }

    List<TargetGroup> inTrain =
        next(
            start(
                discoverer(
                    client,
                    Role.ENDPOINTS,
                    new Namespaces(List.of("train"), false),
                    List.of(new Selector(Role.ENDPOINTS, "tier=gpu", null)))));
    assertThat(inTrain).extracting(TargetGroup::source).containsExactly("endpoints/train/ep-gpu");

    List<TargetGroup> byName =
        next(
            start(
                discoverer(
                    client,
                    Role.ENDPOINTS,
                    Namespaces.ALL,
                    List.of(new Selector(Role.ENDPOINTS, null, "metadata.name=ep-cpu")))));
    assertThat(byName)
        .extracting(TargetGroup::source)
        .containsExactly("endpoints/other/ep-cpu", "endpoints/train/ep-cpu");

    // A pod selector that admits no pod: the endpoint targets stay, without pod labels.
    List<TargetGroup> noPods =
        next(
            start(
                discoverer(
                    client,
                    Role.ENDPOINTS,
                    new Namespaces(List.of("train"), false),
                    List.of(
                        new Selector(Role.ENDPOINTS, null, "metadata.name=ep-gpu"),
                        new Selector(Role.POD, "app=other", null)))));
    assertThat(noPods.get(0).targets())
        .containsExactly(
            labels(endpoint("10.1.2.3:8080", "true", "lora-0")),
            labels(endpoint("10.1.2.4:8080", "true", "lora-1", "lora-1")));
  }
}
