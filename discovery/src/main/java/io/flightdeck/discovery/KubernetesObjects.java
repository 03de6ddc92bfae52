package io.flightdeck.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import io.flightdeck.model.Labels;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns Kubernetes API objects (as JSON) into target groups with Prometheus's {@code
 * __meta_kubernetes_*} labels, one group per object, sourced {@code pod/NS/NAME}, {@code
 * svc/NS/NAME} or {@code node/NAME}.
 */
final class KubernetesObjects {
  static final String PREFIX = "__meta_kubernetes_";
  private static final String NAMESPACE = PREFIX + "namespace";

  private KubernetesObjects() {}

  /** One target per container port, or per container without ports; none without a pod IP. */
  static TargetGroup pod(JsonNode pod) {
    JsonNode meta = pod.path("metadata");
    JsonNode spec = pod.path("spec");
    JsonNode status = pod.path("status");
    String namespace = meta.path("namespace").asText();
    String source = "pod/" + namespace + "/" + meta.path("name").asText();
    String ip = status.path("podIP").asText();
    if (ip.isEmpty()) {
      return new TargetGroup(source, List.of(), Labels.EMPTY);
    }
    Labels.Builder group = Labels.builder();
    group.set(PREFIX + "pod_ip", ip);
    group.set(PREFIX + "pod_ready", ready(status));
    group.set(PREFIX + "pod_phase", status.path("phase").asText());
    group.set(PREFIX + "pod_node_name", spec.path("nodeName").asText());
    group.set(PREFIX + "pod_host_ip", status.path("hostIP").asText());
    group.set(PREFIX + "pod_uid", meta.path("uid").asText());
    objectMeta(group, meta, "pod");
    for (JsonNode owner : meta.path("ownerReferences")) {
      if (owner.path("controller").asBoolean(false)) {
        group.set(PREFIX + "pod_controller_kind", owner.path("kind").asText());
        group.set(PREFIX + "pod_controller_name", owner.path("name").asText());
      }
    }
    group.set(NAMESPACE, namespace);
    List<Labels> targets = new ArrayList<>();
    containers(targets, spec.path("containers"), status.path("containerStatuses"), ip, false);
    containers(
        targets, spec.path("initContainers"), status.path("initContainerStatuses"), ip, true);
    return new TargetGroup(source, targets, group.build());
  }

  private static void containers(
      List<Labels> targets, JsonNode containers, JsonNode statuses, String ip, boolean init) {
    for (JsonNode container : containers) {
      String name = container.path("name").asText();
      Labels.Builder base = Labels.builder();
      base.set(PREFIX + "pod_container_name", name);
      base.set(PREFIX + "pod_container_id", containerId(statuses, name));
      base.set(PREFIX + "pod_container_image", container.path("image").asText());
      base.set(PREFIX + "pod_container_init", Boolean.toString(init));
      JsonNode ports = container.path("ports");
      if (ports.isEmpty()) {
        // No port: the address is the bare pod IP; relabelling has to add one.
        targets.add(base.set(TargetGroup.ADDRESS, ip).build());
        continue;
      }
      Labels common = base.build();
      for (JsonNode port : ports) {
        String number = port.path("containerPort").asText();
        targets.add(
            common.toBuilder()
                .set(TargetGroup.ADDRESS, hostPort(ip, number))
                .set(PREFIX + "pod_container_port_name", port.path("name").asText())
                .set(PREFIX + "pod_container_port_number", number)
                .set(PREFIX + "pod_container_port_protocol", port.path("protocol").asText("TCP"))
                .build());
      }
    }
  }

  /** One target per service port at {@code NAME.NS.svc:PORT}. */
  static TargetGroup service(JsonNode service) {
    JsonNode meta = service.path("metadata");
    JsonNode spec = service.path("spec");
    String namespace = meta.path("namespace").asText();
    String name = meta.path("name").asText();
    Labels.Builder group = Labels.builder();
    group.set(NAMESPACE, namespace);
    objectMeta(group, meta, "service");
    String type = spec.path("type").asText("ClusterIP");
    List<Labels> targets = new ArrayList<>();
    for (JsonNode port : spec.path("ports")) {
      String number = port.path("port").asText();
      Labels.Builder target =
          Labels.builder()
              .set(TargetGroup.ADDRESS, hostPort(name + "." + namespace + ".svc", number))
              .set(PREFIX + "service_port_name", port.path("name").asText())
              .set(PREFIX + "service_port_number", number)
              .set(PREFIX + "service_port_protocol", port.path("protocol").asText("TCP"))
              .set(PREFIX + "service_type", type);
      if (type.equals("ExternalName")) {
        target.set(PREFIX + "service_external_name", spec.path("externalName").asText());
      } else {
        target.set(PREFIX + "service_cluster_ip", spec.path("clusterIP").asText());
      }
      targets.add(target.build());
    }
    return new TargetGroup("svc/" + namespace + "/" + name, targets, group.build());
  }

  /** The kubelet of a node, at its preferred address and the kubelet port. */
  static TargetGroup node(JsonNode node) {
    JsonNode meta = node.path("metadata");
    JsonNode status = node.path("status");
    String name = meta.path("name").asText();
    Labels.Builder group = Labels.builder();
    group.set(PREFIX + "node_provider_id", node.path("spec").path("providerID").asText());
    for (JsonNode condition : status.path("conditions")) {
      group.set(
          PREFIX
              + "node_condition_"
              + sanitize(condition.path("type").asText().toLowerCase(Locale.ROOT)),
          condition.path("status").asText().toLowerCase(Locale.ROOT));
    }
    objectMeta(group, meta, "node");
    Map<String, String> addresses = new LinkedHashMap<>();
    for (JsonNode address : status.path("addresses")) {
      addresses.putIfAbsent(address.path("type").asText(), address.path("address").asText());
    }
    String host = null;
    for (String type :
        List.of(
            "InternalIP", "InternalDNS", "ExternalIP", "ExternalDNS", "LegacyHostIP", "Hostname")) {
      if (host == null && addresses.containsKey(type)) {
        host = addresses.get(type);
      }
    }
    String source = "node/" + name;
    if (host == null) {
      return new TargetGroup(source, List.of(), group.build());
    }
    String port = status.path("daemonEndpoints").path("kubeletEndpoint").path("Port").asText("0");
    Labels.Builder target =
        Labels.builder().set(TargetGroup.ADDRESS, hostPort(host, port)).set("instance", name);
    addresses.forEach(
        (type, address) -> target.set(sanitize(PREFIX + "node_address_" + type), address));
    return new TargetGroup(source, List.of(target.build()), group.build());
  }

  /** {@code <role>_name} and every label and annotation with its {@code ..present_} twin. */
  private static void objectMeta(Labels.Builder labels, JsonNode meta, String role) {
    labels.set(PREFIX + role + "_name", meta.path("name").asText());
    copy(labels, meta.path("labels"), role + "_label");
    copy(labels, meta.path("annotations"), role + "_annotation");
  }

  private static void copy(Labels.Builder labels, JsonNode map, String kind) {
    for (Map.Entry<String, JsonNode> entry : map.properties()) {
      String name = sanitize(entry.getKey());
      labels.set(PREFIX + kind + "_" + name, entry.getValue().asText());
      labels.set(PREFIX + kind + "present_" + name, "true");
    }
  }

  private static String ready(JsonNode status) {
    for (JsonNode condition : status.path("conditions")) {
      if (condition.path("type").asText().equals("Ready")) {
        return condition.path("status").asText().toLowerCase(Locale.ROOT);
      }
    }
    return "unknown";
  }

  private static String containerId(JsonNode statuses, String name) {
    for (JsonNode status : statuses) {
      if (status.path("name").asText().equals(name)) {
        return status.path("containerID").asText();
      }
    }
    return "";
  }

  /** Go's {@code net.JoinHostPort}: IPv6 hosts in brackets. */
  private static String hostPort(String host, String port) {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }

  /** Prometheus's label name sanitizing: anything but {@code [a-zA-Z0-9_]} becomes {@code _}. */
  static String sanitize(String name) {
    return name.replaceAll("[^a-zA-Z0-9_]", "_");
  }
}
