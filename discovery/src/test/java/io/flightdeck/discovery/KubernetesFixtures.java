package io.flightdeck.discovery;

import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.flightdeck.config.KubernetesSdConfig;
import io.flightdeck.config.KubernetesSdConfig.Namespaces;
import io.flightdeck.config.KubernetesSdConfig.Role;
import io.flightdeck.config.KubernetesSdConfig.Selector;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Kubernetes objects and discoverers for the tests against fabric8's mock API server. */
final class KubernetesFixtures {
  static final Duration POLL = Duration.ofMillis(100);

  private KubernetesFixtures() {}

  static Discoverer discoverer(
      KubernetesClient client, Role role, Namespaces namespaces, List<Selector> selectors) {
    URI server = URI.create(client.getMasterUrl().toString());
    return new KubernetesDiscoverer(
        "test", new KubernetesSdConfig(role, server, null, namespaces, selectors), POLL);
  }

  /**
   * Waits until the discoverer's watches are open. fabric8's mock API server stops answering
   * everyone for about 30 s, and then fails to close, when a watch is dropped while it is still
   * being set up, which says nothing about the discoverer.
   */
  static void awaitWatchesOpen(Discoverer discoverer) throws InterruptedException {
    Await.until(((KubernetesDiscoverer) discoverer)::watchesOpen);
  }

  static ContainerPort containerPort(String name, int number) {
    return new ContainerPortBuilder()
        .withName(name)
        .withContainerPort(number)
        .withProtocol("TCP")
        .build();
  }

  /** A running pod of one container {@code trainer} on node {@code gpu-node-1}. */
  static Pod pod(
      String namespace,
      String name,
      String ip,
      boolean ready,
      Map<String, String> labels,
      List<ContainerPort> ports) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(namespace)
        .withLabels(labels)
        .endMetadata()
        .withNewSpec()
        .withNodeName("gpu-node-1")
        .addNewContainer()
        .withName("trainer")
        .withImage("modelscope/ms-swift:3.4")
        .withPorts(ports)
        .endContainer()
        .endSpec()
        .withNewStatus()
        .withPodIP(ip)
        .withHostIP("192.168.1.10")
        .withPhase("Running")
        .addNewCondition()
        .withType("Ready")
        .withStatus(ready ? "True" : "False")
        .endCondition()
        .endStatus()
        .build();
  }

  /** A ClusterIP service with one TCP port named {@code metrics}. */
  static Service service(
      String namespace, String name, Map<String, String> labels, Map<String, String> annotations) {
    return new ServiceBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(namespace)
        .withLabels(labels)
        .withAnnotations(annotations)
        .endMetadata()
        .withNewSpec()
        .withType("ClusterIP")
        .withClusterIP("10.96.0.30")
        .addNewPort()
        .withName("metrics")
        .withPort(8080)
        .withProtocol("TCP")
        .endPort()
        .endSpec()
        .build();
  }

  static ObjectReference podRef(String namespace, String name) {
    return new ObjectReferenceBuilder()
        .withKind("Pod")
        .withNamespace(namespace)
        .withName(name)
        .build();
  }

  static String uid(KubernetesClient client, String namespace, String pod) {
    // The mock server assigns its own UIDs.
    return client.pods().inNamespace(namespace).withName(pod).get().getMetadata().getUid();
  }
}
