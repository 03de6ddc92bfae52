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

/**
 * Kubernetes objects and discoverers for the tests against fabric8's mock API server.
 *
 * <p>That server (8.0) has one event loop, and a watch's listener blocks it, when the watch's
 * connection closes, until the listener's sending thread ends; a send under way waits up to 30 s
 * for that same event loop. A watch that closes while the server sends to it thus stalls every
 * request for 30 s and leaves the server unable to shut down. The server sends to a watch when an
 * object changes and, as it opens, every object it matches. So the tests never change objects while
 * a discoverer closes: each test gets a fresh server (instance fields, not static ones, so nothing
 * is deleted between tests), awaits each update it causes, and closes its discoverers once their
 * watches have settled.
 */
final class KubernetesFixtures {
  static final Duration POLL = Duration.ofMillis(100);

  private KubernetesFixtures() {}

  static Discoverer discoverer(
      KubernetesClient client, Role role, Namespaces namespaces, List<Selector> selectors) {
    URI server = URI.create(client.getMasterUrl().toString());
    return new KubernetesDiscoverer(
        "test", new KubernetesSdConfig(role, server, null, namespaces, selectors), POLL);
  }

  /** Waits until the discoverer's watches are open and have had the objects the server resends. */
  static void awaitWatchesSettled(Discoverer discoverer) throws InterruptedException {
    Await.until(((KubernetesDiscoverer) discoverer)::watchesSettled);
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
