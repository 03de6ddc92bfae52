package io.flightdeck.discovery;

import static io.flightdeck.discovery.KubernetesObjects.PREFIX;

import com.fasterxml.jackson.databind.JsonNode;
import io.flightdeck.model.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Role endpointslice ({@code discovery.k8s.io/v1}): one group per slice, sourced {@code
 * endpointslice/NS/NAME}, with the labels of the service named by its {@code
 * kubernetes.io/service-name} label; one target per endpoint address and port, carrying the labels
 * of the pod the endpoint refers to; plus a target per container port of those pods that no slice
 * port covers. The secondary slice of a dual-stack service has no targets, as they would repeat the
 * primary one's.
 */
final class KubernetesEndpointSlices {
  private static final String SLICE = PREFIX + "endpointslice_";
  private static final Set<String> DUAL_STACK = Set.of("PreferDualStack", "RequireDualStack");

  private KubernetesEndpointSlices() {}

  /**
   * @param services the known services by {@code NAMESPACE/NAME}
   * @param pods the known pods by {@code NAMESPACE/NAME}
   */
  static TargetGroup group(
      JsonNode slice, Map<String, JsonNode> services, Map<String, JsonNode> pods) {
    JsonNode meta = slice.path("metadata");
    String namespace = meta.path("namespace").asText();
    String source = "endpointslice/" + namespace + "/" + meta.path("name").asText();
    String addressType = slice.path("addressType").asText();
    Labels.Builder group = Labels.builder();
    group.set(PREFIX + "namespace", namespace);
    group.set(SLICE + "address_type", addressType);
    KubernetesObjects.objectMeta(group, meta, "endpointslice");
    JsonNode serviceName = meta.path("labels").path("kubernetes.io/service-name");
    JsonNode service =
        serviceName.isTextual() ? services.get(namespace + "/" + serviceName.asText()) : null;
    if (service != null) {
      KubernetesObjects.objectMeta(group, service.path("metadata"), "service");
      if (secondaryFamily(service.path("spec"), addressType)) {
        return new TargetGroup(source, List.of(), group.build());
      }
    }
    EndpointPods behind = new EndpointPods(pods);
    List<Labels> targets = new ArrayList<>();
    for (JsonNode endpoint : slice.path("endpoints")) {
      for (JsonNode port : slice.path("ports")) {
        for (JsonNode address : endpoint.path("addresses")) {
          targets.add(target(address.asText(), endpoint, port, behind));
        }
      }
    }
    targets.addAll(behind.uncoveredPortTargets());
    return new TargetGroup(source, targets, group.build());
  }

  private static boolean secondaryFamily(JsonNode serviceSpec, String addressType) {
    JsonNode families = serviceSpec.path("ipFamilies");
    return DUAL_STACK.contains(serviceSpec.path("ipFamilyPolicy").asText())
        && !families.isEmpty()
        && !families.get(0).asText().equals(addressType);
  }

  private static Labels target(
      String address, JsonNode endpoint, JsonNode port, EndpointPods behind) {
    String number = port.path("port").asText();
    JsonNode conditions = endpoint.path("conditions");
    JsonNode ref = endpoint.path("targetRef");
    Labels.Builder target = Labels.builder();
    target.set(
        TargetGroup.ADDRESS,
        number.isEmpty() ? address : KubernetesObjects.hostPort(address, number));
    target.set(SLICE + "port", number);
    target.set(SLICE + "port_name", port.path("name").asText());
    // The API server defaults the protocol to TCP.
    target.set(SLICE + "port_protocol", port.path("protocol").asText("TCP"));
    target.set(SLICE + "port_app_protocol", port.path("appProtocol").asText());
    for (String condition : List.of("ready", "serving", "terminating")) {
      if (conditions.path(condition).isBoolean()) {
        target.set(SLICE + "endpoint_conditions_" + condition, conditions.path(condition).asText());
      }
    }
    target.set(SLICE + "endpoint_hostname", endpoint.path("hostname").asText());
    target.set(SLICE + "endpoint_node_name", endpoint.path("nodeName").asText());
    target.set(SLICE + "endpoint_zone", endpoint.path("zone").asText());
    target.set(SLICE + "address_target_kind", ref.path("kind").asText());
    target.set(SLICE + "address_target_name", ref.path("name").asText());
    for (Map.Entry<String, JsonNode> entry : endpoint.path("deprecatedTopology").properties()) {
      String name = KubernetesObjects.sanitize(entry.getKey());
      target.set(SLICE + "endpoint_topology_" + name, entry.getValue().asText());
      target.set(SLICE + "endpoint_topology_present_" + name, "true");
    }
    behind.attach(target, ref, number, null);
    return target.build();
  }
}
