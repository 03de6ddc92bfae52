package io.flightdeck.discovery;

import static io.flightdeck.discovery.KubernetesFixtures.awaitWatchesSettled;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.flightdeck.config.KubernetesSdConfig;
import io.flightdeck.config.KubernetesSdConfig.Namespaces;
import io.flightdeck.config.KubernetesSdConfig.Role;
import io.flightdeck.config.KubernetesSdConfig.Selector;
import io.flightdeck.model.Labels;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.Test;

/** Against fabric8's mock API server in CRUD mode: objects created, changed and deleted. */
@EnableKubernetesMockClient(crud = true, https = false)
class KubernetesDiscovererTest extends DiscovererContractTest {
  private static final Duration POLL = Duration.ofMillis(100);

  /** A fresh mock API server per test: see {@link KubernetesFixtures}. */
  KubernetesClient client;

  private Discoverer discoverer(Role role, Namespaces namespaces, List<Selector> selectors) {
    URI server = URI.create(client.getMasterUrl().toString());
    return new KubernetesDiscoverer(
        "test", new KubernetesSdConfig(role, server, null, namespaces, selectors), POLL);
  }

  @Override
  Discoverer create(List<Declared> groups) {
    for (int i = 0; i < groups.size(); i++) {
      Declared group = groups.get(i);
      String host = group.addresses().get(0).split(":")[0];
      List<Integer> ports = new ArrayList<>();
      group.addresses().forEach(a -> ports.add(Integer.parseInt(a.split(":")[1])));
      client
          .pods()
          .inNamespace("default")
          .resource(pod("g" + i, host, group.labels(), Map.of(), ports))
          .create();
    }
    return discoverer(Role.POD, Namespaces.ALL, List.of());
  }

  @Override
  void awaitSteadyState(Discoverer discoverer) throws InterruptedException {
    awaitWatchesSettled(discoverer);
  }

  @Override
  String reportedLabel(String declared) {
    return "__meta_kubernetes_pod_label_" + declared;
  }

  private static Pod pod(
      String name,
      String ip,
      Map<String, String> labels,
      Map<String, String> annotations,
      List<Integer> ports) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("default")
        .withUid("uid-" + name)
        .withLabels(labels)
        .withAnnotations(annotations)
        .endMetadata()
        .withNewSpec()
        .withNodeName("gpu-node-1")
        .addNewContainer()
        .withName("trainer")
        .withImage("modelscope/ms-swift:3.4")
        .withPorts(
            ports.stream()
                .map(
                    p ->
                        new ContainerPortBuilder()
                            .withContainerPort(p)
                            .withName("metrics")
                            .withProtocol("TCP")
                            .build())
                .toList())
        .endContainer()
        .endSpec()
        .withNewStatus()
        .withPodIP(ip)
        .withHostIP("192.168.1.10")
        .withPhase("Running")
        .addNewCondition()
        .withType("Ready")
        .withStatus("True")
        .endCondition()
        .endStatus()
        .build();
  }

  @Test
  void trainingPodsComeChangeAndGoWithPrometheusMetaLabels() throws Exception {
    // Our users' case: pods labelled app=ms-swift-train, the metrics port in an annotation.
    Discoverer discoverer =
        discoverer(
            Role.POD,
            new Namespaces(List.of("default"), false),
            List.of(new Selector(Role.POD, "app=ms-swift-train", null)));
    BlockingQueue<List<TargetGroup>> updates = start(discoverer);
    assertThat(next(updates)).isEmpty();

    client
        .pods()
        .inNamespace("default")
        .resource(
            pod(
                "lora-0",
                "10.1.2.3",
                Map.of("app", "ms-swift-train", "app.kubernetes.io/part-of", "llm"),
                Map.of("prometheus.io/port", "8080"),
                List.of()))
        .create();
    client
        .pods()
        .inNamespace("default")
        .resource(pod("redis", "10.1.2.4", Map.of("app", "redis"), Map.of(), List.of(6379)))
        .create();

    List<TargetGroup> groups = next(updates);
    assertThat(groups).hasSize(1);
    // The mock server assigns its own UID.
    String uid =
        client.pods().inNamespace("default").withName("lora-0").get().getMetadata().getUid();
    TargetGroup group = groups.get(0);
    assertThat(group.source()).isEqualTo("pod/default/lora-0");
    assertThat(group.labels())
        .isEqualTo(
            Labels.of(
                "__meta_kubernetes_namespace", "default",
                "__meta_kubernetes_pod_name", "lora-0",
                "__meta_kubernetes_pod_ip", "10.1.2.3",
                "__meta_kubernetes_pod_ready", "true",
                "__meta_kubernetes_pod_phase", "Running",
                "__meta_kubernetes_pod_node_name", "gpu-node-1",
                "__meta_kubernetes_pod_host_ip", "192.168.1.10",
                "__meta_kubernetes_pod_uid", uid,
                "__meta_kubernetes_pod_label_app", "ms-swift-train",
                "__meta_kubernetes_pod_labelpresent_app", "true",
                "__meta_kubernetes_pod_label_app_kubernetes_io_part_of", "llm",
                "__meta_kubernetes_pod_labelpresent_app_kubernetes_io_part_of", "true",
                "__meta_kubernetes_pod_annotation_prometheus_io_port", "8080",
                "__meta_kubernetes_pod_annotationpresent_prometheus_io_port", "true"));
    assertThat(group.targets())
        .containsExactly(
            Labels.of(
                "__address__", "10.1.2.3",
                "__meta_kubernetes_pod_container_name", "trainer",
                "__meta_kubernetes_pod_container_image", "modelscope/ms-swift:3.4",
                "__meta_kubernetes_pod_container_init", "false"));

    client
        .pods()
        .inNamespace("default")
        .withName("lora-0")
        .edit(p -> new PodBuilder(p).editStatus().withPodIP("10.1.2.9").endStatus().build());
    assertThat(next(updates).get(0).targets().get(0).get("__address__")).isEqualTo("10.1.2.9");

    client.pods().inNamespace("default").withName("lora-0").delete();
    assertThat(next(updates)).isEmpty();
  }

  @Test
  void servicesAndNodes() throws Exception {
    client
        .services()
        .inNamespace("monitoring")
        .resource(
            new ServiceBuilder()
                .withNewMetadata()
                .withName("dcgm-exporter")
                .withNamespace("monitoring")
                .endMetadata()
                .withNewSpec()
                .withType("ClusterIP")
                .withClusterIP("10.96.0.20")
                .addNewPort()
                .withName("metrics")
                .withPort(9400)
                .withProtocol("TCP")
                .endPort()
                .endSpec()
                .build())
        .create();
    client
        .nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName("gpu-node-1")
                .endMetadata()
                .withNewStatus()
                .addNewAddress()
                .withType("InternalIP")
                .withAddress("192.168.1.10")
                .endAddress()
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .endCondition()
                .withNewDaemonEndpoints()
                .withNewKubeletEndpoint()
                .withPort(10250)
                .endKubeletEndpoint()
                .endDaemonEndpoints()
                .endStatus()
                .build())
        .create();

    TargetGroup service = next(start(discoverer(Role.SERVICE, Namespaces.ALL, List.of()))).get(0);
    assertThat(service.source()).isEqualTo("svc/monitoring/dcgm-exporter");
    assertThat(service.targets().get(0))
        .isEqualTo(
            Labels.of(
                "__address__", "dcgm-exporter.monitoring.svc:9400",
                "__meta_kubernetes_service_port_name", "metrics",
                "__meta_kubernetes_service_port_number", "9400",
                "__meta_kubernetes_service_port_protocol", "TCP",
                "__meta_kubernetes_service_type", "ClusterIP",
                "__meta_kubernetes_service_cluster_ip", "10.96.0.20"));

    TargetGroup node = next(start(discoverer(Role.NODE, Namespaces.ALL, List.of()))).get(0);
    assertThat(node.labels().get("__meta_kubernetes_node_condition_ready")).isEqualTo("true");
    assertThat(node.targets().get(0))
        .isEqualTo(
            Labels.of(
                "__address__", "192.168.1.10:10250",
                "instance", "gpu-node-1",
                "__meta_kubernetes_node_address_InternalIP", "192.168.1.10"));
  }
}
