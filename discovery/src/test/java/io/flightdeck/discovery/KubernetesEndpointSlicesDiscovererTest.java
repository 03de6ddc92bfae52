package io.flightdeck.discovery;

import static io.flightdeck.discovery.KubernetesFixtures.awaitWatchesSettled;
import static io.flightdeck.discovery.KubernetesFixtures.containerPort;
import static io.flightdeck.discovery.KubernetesFixtures.discoverer;
import static io.flightdeck.discovery.KubernetesFixtures.pod;
import static io.flightdeck.discovery.KubernetesFixtures.podRef;
import static io.flightdeck.discovery.KubernetesFixtures.service;
import static io.flightdeck.discovery.KubernetesFixtures.uid;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.flightdeck.config.KubernetesSdConfig.Namespaces;
import io.flightdeck.config.KubernetesSdConfig.Role;
import io.flightdeck.config.KubernetesSdConfig.Selector;
import io.flightdeck.model.Labels;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.Test;

/** Role endpointslice against fabric8's mock API server in CRUD mode. */
@EnableKubernetesMockClient(crud = true, https = false)
class KubernetesEndpointSlicesDiscovererTest extends DiscovererContractTest {
  private static final String SERVICE_NAME = "kubernetes.io/service-name";

  /** A fresh mock API server per test: see {@link KubernetesFixtures}. */
  KubernetesClient client;

  private void create(EndpointSlice slice) {
    client
        .discovery()
        .v1()
        .endpointSlices()
        .inNamespace(slice.getMetadata().getNamespace())
        .resource(slice)
        .create();
  }

  @Override
  Discoverer create(List<Declared> groups) {
    for (int i = 0; i < groups.size(); i++) {
      Declared group = groups.get(i);
      EndpointSliceBuilder slice =
          new EndpointSliceBuilder()
              .withNewMetadata()
              .withNamespace("default")
              .withName("g" + i)
              .withLabels(group.labels())
              .endMetadata()
              .withAddressType("IPv4")
              .addNewEndpoint()
              .withAddresses(group.addresses().get(0).split(":")[0])
              .endEndpoint();
      for (String address : group.addresses()) {
        slice.addNewPort().withPort(Integer.parseInt(address.split(":")[1])).endPort();
      }
      create(slice.build());
    }
    return discoverer(client, Role.ENDPOINTSLICE, Namespaces.ALL, List.of());
  }

  @Override
  void awaitSteadyState(Discoverer discoverer) throws InterruptedException {
    awaitWatchesSettled(discoverer);
  }

  @Override
  String reportedLabel(String declared) {
    return "__meta_kubernetes_endpointslice_label_" + declared;
  }

  /** A slice of service ms-swift-train: lora-0 ready in zone-a, lora-1 terminating. */
  private static EndpointSlice trainSlice(String namespace, String name, String addressType) {
    return new EndpointSliceBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .withLabels(Map.of(SERVICE_NAME, "ms-swift-train"))
        .endMetadata()
        .withAddressType(addressType)
        .addNewEndpoint()
        .withAddresses("10.1.2.3")
        .withNewConditions()
        .withReady(true)
        .withServing(true)
        .withTerminating(false)
        .endConditions()
        .withNodeName("gpu-node-1")
        .withZone("zone-a")
        .withTargetRef(podRef(namespace, "lora-0"))
        .addToDeprecatedTopology("topology.kubernetes.io/region", "cn-north")
        .endEndpoint()
        .addNewEndpoint()
        .withAddresses("10.1.2.4")
        .withHostname("lora-1")
        .withNewConditions()
        .withReady(false)
        .withServing(true)
        .withTerminating(true)
        .endConditions()
        .withTargetRef(podRef(namespace, "lora-1"))
        .endEndpoint()
        .addNewPort()
        .withName("metrics")
        .withPort(8080)
        .withProtocol("TCP")
        .withAppProtocol("http")
        .endPort()
        .build();
  }

  private static final List<String> PORT =
      List.of(
          "__meta_kubernetes_endpointslice_port", "8080",
          "__meta_kubernetes_endpointslice_port_name", "metrics",
          "__meta_kubernetes_endpointslice_port_protocol", "TCP",
          "__meta_kubernetes_endpointslice_port_app_protocol", "http");

  private static List<String> podLabels(String name, String ip, String uid) {
    return List.of(
        "__meta_kubernetes_pod_name", name,
        "__meta_kubernetes_pod_ip", ip,
        "__meta_kubernetes_pod_ready", "true",
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
    return Labels.of(java.util.Arrays.stream(parts).flatMap(List::stream).toArray(String[]::new));
  }

  @Test
  void trainingPodsBehindAServiceLabelTheSliceTargets() throws Exception {
    Map<String, String> app = Map.of("app", "ms-swift-train");
    BlockingQueue<List<TargetGroup>> updates =
        start(discoverer(client, Role.ENDPOINTSLICE, Namespaces.ALL, List.of()));
    assertThat(next(updates)).isEmpty();

    client
        .services()
        .inNamespace("train")
        .resource(service("train", "ms-swift-train", app, Map.of()))
        .create();
    for (String[] pod : new String[][] {{"lora-0", "10.1.2.3"}, {"lora-1", "10.1.2.4"}}) {
      client
          .pods()
          .inNamespace("train")
          .resource(
              pod(
                  "train",
                  pod[0],
                  pod[1],
                  true,
                  app,
                  List.of(containerPort("metrics", 8080), containerPort("dist", 29500))))
          .create();
    }
    create(trainSlice("train", "ms-swift-train-x7k2p", "IPv4"));

    List<TargetGroup> groups = next(updates);
    String uid0 = uid(client, "train", "lora-0");
    String uid1 = uid(client, "train", "lora-1");
    assertThat(groups).hasSize(1);
    TargetGroup group = groups.get(0);
    assertThat(group.source()).isEqualTo("endpointslice/train/ms-swift-train-x7k2p");
    assertThat(group.labels())
        .isEqualTo(
            Labels.of(
                "__meta_kubernetes_namespace", "train",
                "__meta_kubernetes_endpointslice_address_type", "IPv4",
                "__meta_kubernetes_endpointslice_name", "ms-swift-train-x7k2p",
                "__meta_kubernetes_endpointslice_label_kubernetes_io_service_name",
                    "ms-swift-train",
                "__meta_kubernetes_endpointslice_labelpresent_kubernetes_io_service_name", "true",
                "__meta_kubernetes_service_name", "ms-swift-train",
                "__meta_kubernetes_service_label_app", "ms-swift-train",
                "__meta_kubernetes_service_labelpresent_app", "true"));
    assertThat(group.targets())
        .containsExactly(
            labels(
                List.of(
                    "__address__", "10.1.2.3:8080",
                    "__meta_kubernetes_endpointslice_endpoint_conditions_ready", "true",
                    "__meta_kubernetes_endpointslice_endpoint_conditions_serving", "true",
                    "__meta_kubernetes_endpointslice_endpoint_conditions_terminating", "false",
                    "__meta_kubernetes_endpointslice_endpoint_node_name", "gpu-node-1",
                    "__meta_kubernetes_endpointslice_endpoint_zone", "zone-a",
                    "__meta_kubernetes_endpointslice_endpoint_topology_topology_kubernetes_io_region",
                        "cn-north",
                    "__meta_kubernetes_endpointslice_endpoint_topology_present_topology_kubernetes_io_region",
                        "true",
                    "__meta_kubernetes_endpointslice_address_target_kind", "Pod",
                    "__meta_kubernetes_endpointslice_address_target_name", "lora-0"),
                PORT,
                podLabels("lora-0", "10.1.2.3", uid0),
                container("metrics", "8080")),
            labels(
                List.of(
                    "__address__", "10.1.2.4:8080",
                    "__meta_kubernetes_endpointslice_endpoint_conditions_ready", "false",
                    "__meta_kubernetes_endpointslice_endpoint_conditions_serving", "true",
                    "__meta_kubernetes_endpointslice_endpoint_conditions_terminating", "true",
                    "__meta_kubernetes_endpointslice_endpoint_hostname", "lora-1",
                    "__meta_kubernetes_endpointslice_address_target_kind", "Pod",
                    "__meta_kubernetes_endpointslice_address_target_name", "lora-1"),
                PORT,
                podLabels("lora-1", "10.1.2.4", uid1),
                container("metrics", "8080")),
            labels(
                List.of("__address__", "10.1.2.3:29500"),
                podLabels("lora-0", "10.1.2.3", uid0),
                container("dist", "29500")),
            labels(
                List.of("__address__", "10.1.2.4:29500"),
                podLabels("lora-1", "10.1.2.4", uid1),
                container("dist", "29500")));

    // lora-1 finished terminating and left the slice.
    client
        .discovery()
        .v1()
        .endpointSlices()
        .inNamespace("train")
        .withName("ms-swift-train-x7k2p")
        .edit(
            s -> {
              s.getEndpoints().remove(1);
              return s;
            });
    assertThat(next(updates).get(0).targets())
        .extracting(t -> t.get("__address__"))
        .containsExactly("10.1.2.3:8080", "10.1.2.3:29500");

    client
        .discovery()
        .v1()
        .endpointSlices()
        .inNamespace("train")
        .withName("ms-swift-train-x7k2p")
        .delete();
    assertThat(next(updates)).isEmpty();
  }

  @Test
  void theSecondarySliceOfADualStackServiceHasNoTargets() throws Exception {
    client
        .services()
        .inNamespace("train")
        .resource(
            new ServiceBuilder(service("train", "ms-swift-train", Map.of(), Map.of()))
                .editSpec()
                .withIpFamilyPolicy("PreferDualStack")
                .withIpFamilies("IPv4", "IPv6")
                .endSpec()
                .build())
        .create();
    create(trainSlice("train", "v4", "IPv4"));
    create(trainSlice("train", "v6", "IPv6"));

    List<TargetGroup> groups =
        next(start(discoverer(client, Role.ENDPOINTSLICE, Namespaces.ALL, List.of())));

    assertThat(groups)
        .extracting(TargetGroup::source)
        .containsExactly("endpointslice/train/v4", "endpointslice/train/v6");
    assertThat(groups.get(0).targets()).hasSize(2);
    assertThat(groups.get(1).targets()).isEmpty();
    assertThat(groups.get(1).labels().get("__meta_kubernetes_service_name"))
        .isEqualTo("ms-swift-train");
  }

  @Test
  void namespacesAndSelectorsRestrictWhatIsListed() throws Exception {
    for (String namespace : List.of("train", "other")) {
      for (String tier : List.of("gpu", "cpu")) {
        EndpointSlice slice = trainSlice(namespace, "slice-" + tier, "IPv4");
        slice.getMetadata().setLabels(Map.of("tier", tier));
        create(slice);
      }
    }

    List<TargetGroup> inTrain =
        next(
            start(
                discoverer(
                    client,
                    Role.ENDPOINTSLICE,
                    new Namespaces(List.of("train"), false),
                    List.of(new Selector(Role.ENDPOINTSLICE, "tier=gpu", null)))));
    assertThat(inTrain)
        .extracting(TargetGroup::source)
        .containsExactly("endpointslice/train/slice-gpu");

    List<TargetGroup> byName =
        next(
            start(
                discoverer(
                    client,
                    Role.ENDPOINTSLICE,
                    Namespaces.ALL,
                    List.of(new Selector(Role.ENDPOINTSLICE, null, "metadata.name=slice-cpu")))));
    assertThat(byName)
        .extracting(TargetGroup::source)
        .containsExactly("endpointslice/other/slice-cpu", "endpointslice/train/slice-cpu");
  }
}
