package io.flightdeck.discovery;

import static io.flightdeck.discovery.KubernetesObjects.PREFIX;

import com.fasterxml.jackson.databind.JsonNode;
import io.flightdeck.model.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Role endpoints: one group per Endpoints object, sourced {@code endpoints/NS/NAME}, with the
 * labels of the service of the same name; one target per address and port, ready or not, carrying
 * the labels of the pod the address refers to; plus a target per container port of those pods that
 * no endpoint port covers.
 */
final class KubernetesEndpoints {
  private KubernetesEndpoints() {}

  /**
   * @param services the known services by {@code NAMESPACE/NAME}
   * @param pods the known pods by {@code NAMESPACE/NAME}
   */
  static TargetGroup group(
      JsonNode endpoints, Map<String, JsonNode> services, Map<String, JsonNode> pods) {
    JsonNode meta = endpoints.path("metadata");
    String namespace = meta.path("namespace").asText();
    String name = meta.path("name").asText();
    Labels.Builder group = Labels.builder();
    group.set(PREFIX + "namespace", namespace);
    JsonNode service = services.get(namespace + "/" + name);
    if (service != null) {
      KubernetesObjects.objectMeta(group, service.path("metadata"), "service");
    }
    KubernetesObjects.objectMeta(group, meta, "endpoints");
    EndpointPods behind = new EndpointPods(pods);
    List<Labels> targets = new ArrayList<>();
    for (JsonNode subset : endpoints.path("subsets")) {
      for (JsonNode port : subset.path("ports")) {
        for (JsonNode address : subset.path("addresses")) {
          targets.add(target(address, port, "true", behind));
        }
        for (JsonNode address : subset.path("notReadyAddresses")) {
          targets.add(target(address, port, "false", behind));
        }
      }
    }
    targets.addAll(behind.uncoveredPortTargets());
    return new TargetGroup("endpoints/" + namespace + "/" + name, targets, group.build());
  }

  private static Labels target(JsonNode address, JsonNode port, String ready, EndpointPods behind) {
    String number = port.path("port").asText();
    // The API server defaults the protocol to TCP.
    String protocol = port.path("protocol").asText("TCP");
    JsonNode ref = address.path("targetRef");
    Labels.Builder target = Labels.builder();
    target.set(
        TargetGroup.ADDRESS, KubernetesObjects.hostPort(address.path("ip").asText(), number));
    target.set(PREFIX + "endpoint_port_name", port.path("name").asText());
    target.set(PREFIX + "endpoint_port_protocol", protocol);
    target.set(PREFIX + "endpoint_ready", ready);
    target.set(PREFIX + "endpoint_address_target_kind", ref.path("kind").asText());
    target.set(PREFIX + "endpoint_address_target_name", ref.path("name").asText());
    target.set(PREFIX + "endpoint_node_name", address.path("nodeName").asText());
    target.set(PREFIX + "endpoint_hostname", address.path("hostname").asText());
    // Prometheus reports the endpoint's protocol as the container port's here.
    behind.attach(target, ref, number, protocol);
    return target.build();
  }
}
