package io.flightdeck.discovery;

import static io.flightdeck.discovery.KubernetesObjects.PREFIX;

import com.fasterxml.jackson.databind.JsonNode;
import io.flightdeck.model.Labels;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pods behind the addresses of one Endpoints object or endpoint slice: their labels go onto the
 * targets whose address refers to them, and their container ports that no endpoint port covers
 * become targets of their own, as Prometheus does. Used for one object, then discarded.
 */
final class EndpointPods {
  private final Map<String, JsonNode> pods;
  private final Map<String, Set<String>> coveredPorts = new LinkedHashMap<>();

  /**
   * @param pods the known pods by {@code NAMESPACE/NAME}
   */
  EndpointPods(Map<String, JsonNode> pods) {
    this.pods = pods;
  }

  /**
   * Adds the labels of the pod {@code targetRef} names, if it is a known pod, and those of its
   * container port numbered {@code port}, and remembers that port as covered.
   *
   * @param port the endpoint port, empty for none
   * @param protocol the container port protocol to report, null for the container port's own
   */
  void attach(Labels.Builder target, JsonNode targetRef, String port, String protocol) {
    if (!targetRef.path("kind").asText().equals("Pod")) {
      return;
    }
    String key = targetRef.path("namespace").asText() + "/" + targetRef.path("name").asText();
    JsonNode pod = pods.get(key);
    if (pod == null) {
      return;
    }
    KubernetesObjects.podLabels(pod).forEach(target::set);
    Set<String> covered = coveredPorts.computeIfAbsent(key, k -> new HashSet<>());
    if (port.isEmpty()) {
      return;
    }
    covered.add(port);
    // Like Prometheus, the first matching port of each container, a later container winning.
    forEachContainer(
        pod,
        (container, init) -> {
          for (JsonNode containerPort : container.path("ports")) {
            if (containerPort.path("containerPort").asText().equals(port)) {
              containerLabels(target, container, init, containerPort);
              if (protocol != null) {
                target.set(PREFIX + "pod_container_port_protocol", protocol);
              }
              break;
            }
          }
        });
  }

  /** A target for each container port of the attached pods that no endpoint port covered. */
  List<Labels> uncoveredPortTargets() {
    List<Labels> targets = new ArrayList<>();
    coveredPorts.forEach(
        (key, covered) -> {
          JsonNode pod = pods.get(key);
          String ip = pod.path("status").path("podIP").asText();
          if (ip.isEmpty()) {
            return; // starting or evicted
          }
          Labels podLabels = KubernetesObjects.podLabels(pod);
          forEachContainer(
              pod,
              (container, init) -> {
                for (JsonNode containerPort : container.path("ports")) {
                  String number = containerPort.path("containerPort").asText();
                  if (covered.contains(number)) {
                    continue;
                  }
                  Labels.Builder target = podLabels.toBuilder();
                  target.set(TargetGroup.ADDRESS, KubernetesObjects.hostPort(ip, number));
                  containerLabels(target, container, init, containerPort);
                  targets.add(target.build());
                }
              });
        });
    return targets;
  }

  private interface ContainerVisitor {
    void visit(JsonNode container, boolean init);
  }

  private static void forEachContainer(JsonNode pod, ContainerVisitor visitor) {
    for (JsonNode container : pod.path("spec").path("containers")) {
      visitor.visit(container, false);
    }
    for (JsonNode container : pod.path("spec").path("initContainers")) {
      visitor.visit(container, true);
    }
  }

  private static void containerLabels(
      Labels.Builder target, JsonNode container, boolean init, JsonNode port) {
    target.set(PREFIX + "pod_container_name", container.path("name").asText());
    target.set(PREFIX + "pod_container_image", container.path("image").asText());
    target.set(PREFIX + "pod_container_port_name", port.path("name").asText());
    target.set(PREFIX + "pod_container_port_number", port.path("containerPort").asText());
    target.set(PREFIX + "pod_container_port_protocol", port.path("protocol").asText("TCP"));
    target.set(PREFIX + "pod_container_init", Boolean.toString(init));
  }
}
