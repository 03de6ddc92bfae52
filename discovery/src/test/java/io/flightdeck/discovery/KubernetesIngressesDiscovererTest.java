package io.flightdeck.discovery;

import static io.flightdeck.discovery.KubernetesFixtures.awaitWatchesSettled;
import static io.flightdeck.discovery.KubernetesFixtures.discoverer;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressBuilder;
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

/** Role ingress against fabric8's mock API server in CRUD mode. */
@EnableKubernetesMockClient(crud = true, https = false)
class KubernetesIngressesDiscovererTest extends DiscovererContractTest {
  /** A fresh mock API server per test: see {@link KubernetesFixtures}. */
  KubernetesClient client;

  private void create(Ingress ingress) {
    client
        .network()
        .v1()
        .ingresses()
        .inNamespace(ingress.getMetadata().getNamespace())
        .resource(ingress)
        .create();
  }

  /** Each declared address becomes a rule host (the mock server does not reject the port). */
  @Override
  Discoverer create(List<Declared> groups) {
    for (int i = 0; i < groups.size(); i++) {
      Declared group = groups.get(i);
      IngressBuilder ingress =
          new IngressBuilder()
              .withNewMetadata()
              .withNamespace("default")
              .withName("g" + i)
              .withLabels(group.labels())
              .endMetadata()
              .withNewSpec()
              .endSpec();
      for (String address : group.addresses()) {
        ingress.editSpec().addNewRule().withHost(address).endRule().endSpec();
      }
      create(ingress.build());
    }
    return discoverer(client, Role.INGRESS, Namespaces.ALL, List.of());
  }

  @Override
  void awaitSteadyState(Discoverer discoverer) throws InterruptedException {
    awaitWatchesSettled(discoverer);
  }

  @Override
  String reportedLabel(String declared) {
    return "__meta_kubernetes_ingress_label_" + declared;
  }

  private static Ingress dashboards(String namespace, String name, Map<String, String> labels) {
    return new IngressBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .withLabels(labels)
        .withAnnotations(Map.of("cert-manager.io/cluster-issuer", "letsencrypt"))
        .endMetadata()
        .withNewSpec()
        .withIngressClassName("nginx")
        .addNewTl()
        .withHosts("*.example.com")
        .endTl()
        .addNewRule()
        .withHost("tb.example.com")
        .withNewHttp()
        .addNewPath()
        .withPath("/")
        .withPathType("Prefix")
        .endPath()
        .addNewPath()
        .withPath("/runs")
        .withPathType("Prefix")
        .endPath()
        .endHttp()
        .endRule()
        .addNewRule()
        .withHost("grafana.lab.example.com")
        .withNewHttp()
        .addNewPath()
        .withPathType("ImplementationSpecific")
        .endPath()
        .endHttp()
        .endRule()
        .addNewRule()
        .withHost("flightdeck.internal")
        .endRule()
        .endSpec()
        .build();
  }

  private static Labels target(String scheme, String host, String path) {
    return Labels.of(
        "__address__", host,
        "__meta_kubernetes_ingress_scheme", scheme,
        "__meta_kubernetes_ingress_host", host,
        "__meta_kubernetes_ingress_path", path);
  }

  @Test
  void ingressesComeChangeAndGoWithOneTargetPerHostAndPath() throws Exception {
    BlockingQueue<List<TargetGroup>> updates =
        start(discoverer(client, Role.INGRESS, Namespaces.ALL, List.of()));
    assertThat(next(updates)).isEmpty();

    create(dashboards("monitoring", "dashboards", Map.of("team", "ml-infra")));

    List<TargetGroup> groups = next(updates);
    assertThat(groups).hasSize(1);
    assertThat(groups.get(0).source()).isEqualTo("ingress/monitoring/dashboards");
    assertThat(groups.get(0).labels())
        .isEqualTo(
            Labels.of(
                "__meta_kubernetes_namespace", "monitoring",
                "__meta_kubernetes_ingress_name", "dashboards",
                "__meta_kubernetes_ingress_class_name", "nginx",
                "__meta_kubernetes_ingress_label_team", "ml-infra",
                "__meta_kubernetes_ingress_labelpresent_team", "true",
                "__meta_kubernetes_ingress_annotation_cert_manager_io_cluster_issuer",
                    "letsencrypt",
                "__meta_kubernetes_ingress_annotationpresent_cert_manager_io_cluster_issuer",
                    "true"));
    // *.example.com covers tb.example.com only: a wildcard stands for exactly one name part.
    assertThat(groups.get(0).targets())
        .containsExactly(
            target("https", "tb.example.com", "/"),
            target("https", "tb.example.com", "/runs"),
            target("http", "grafana.lab.example.com", "/"),
            target("http", "flightdeck.internal", "/"));

    client
        .network()
        .v1()
        .ingresses()
        .inNamespace("monitoring")
        .withName("dashboards")
        .edit(
            i -> {
              i.getSpec().getRules().remove(0);
              return i;
            });
    assertThat(next(updates).get(0).targets())
        .containsExactly(
            target("http", "grafana.lab.example.com", "/"),
            target("http", "flightdeck.internal", "/"));

    client.network().v1().ingresses().inNamespace("monitoring").withName("dashboards").delete();
    assertThat(next(updates)).isEmpty();
  }

  @Test
  void namespacesAndSelectorsRestrictWhatIsListed() throws Exception {
    for (String namespace : List.of("train", "other")) {
      for (String tier : List.of("gpu", "cpu")) {
        create(dashboards(namespace, "ing-" + tier, Map.of("tier", tier)));
      }
    }

    List<TargetGroup> inTrain =
        next(
            start(
                discoverer(
                    client,
                    Role.INGRESS,
                    new Namespaces(List.of("train"), false),
                    List.of(new Selector(Role.INGRESS, "tier=gpu", null)))));
    assertThat(inTrain).extracting(TargetGroup::source).containsExactly("ingress/train/ing-gpu");

    List<TargetGroup> byName =
        next(
            start(
                discoverer(
                    client,
                    Role.INGRESS,
                    Namespaces.ALL,
                    List.of(new Selector(Role.INGRESS, null, "metadata.name=ing-cpu")))));
    assertThat(byName)
        .extracting(TargetGroup::source)
        .containsExactly("ingress/other/ing-cpu", "ingress/train/ing-cpu");
  }
}
