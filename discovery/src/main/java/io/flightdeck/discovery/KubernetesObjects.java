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
 * svc/NS/NAME}, {@code ingress/NS/NAME} or {@code node/NAME}.
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
    Labels.Builder group = podLabels(pod).toBuilder();
    group.set(NAMESPACE, namespace);
    List<Labels> targets = new ArrayList<>();
    containers(targets, spec.path("containers"), status.path("containerStatuses"), ip, false);
    containers(
        targets, spec.path("initContainers"), status.path("initContainerStatuses"), ip, true);
    return new TargetGroup(source, targets, group.build());
  }

  /**
   * A pod's own labels, without the namespace: the group labels of role pod, the target labels of
   * endpoints and endpoint slices whose address is the pod.
   */
  static Labels podLabels(JsonNode pod) {
    JsonNode meta = pod.path("metadata");
    JsonNode status = pod.path("status");
    Labels.Builder labels = Labels.builder();
    labels.set(PREFIX + "pod_ip", status.path("podIP").asText());
    labels.set(PREFIX + "pod_ready", ready(status));
    labels.set(PREFIX + "pod_phase", status.path("phase").asText());
    labels.set(PREFIX + "pod_node_name", pod.path("spec").path("nodeName").asText());
    labels.set(PREFIX + "pod_host_ip", status.path("hostIP").asText());
    labels.set(PREFIX + "pod_uid", meta.path("uid").asText());
    objectMeta(labels, meta, "pod");
    for (JsonNode owner : meta.path("ownerReferences")) {
      if (owner.path("controller").asBoolean(false)) {
        labels.set(PREFIX + "pod_controller_kind", owner.path("kind").asText());
        labels.set(PREFIX + "pod_controller_name", owner.path("name").asText());
      }
    }
    return labels.build();
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

  /**
   * One target per rule host and path at the host, {@code https} where a TLS entry's host or
   * wildcard pattern covers it; a rule without HTTP paths stands for {@code /}.
   */
  static TargetGroup ingress(JsonNode ingress) {
    JsonNode meta = ingress.path("metadata");
    JsonNode spec = ingress.path("spec");
    String namespace = meta.path("namespace").asText();
    Labels.Builder group = Labels.builder();
    group.set(NAMESPACE, namespace);
    group.set(PREFIX + "ingress_class_name", spec.path("ingressClassName").asText());
    objectMeta(group, meta, "ingress");
    List<Labels> targets = new ArrayList<>();
    for (JsonNode rule : spec.path("rules")) {
      String host = rule.path("host").asText();
      String scheme = "http";
      for (JsonNode tls : spec.path("tls")) {
        for (JsonNode pattern : tls.path("hosts")) {
          if (matchesHostPattern(pattern.asText(), host)) {
            scheme = "https";
          }
        }
      }
      List<String> paths = new ArrayList<>();
      if (!rule.has("http")) {
        paths.add("/");
      }
      for (JsonNode path : rule.path("http").path("paths")) {
        String text = path.path("path").asText();
        paths.add(text.isEmpty() ? "/" : text);
      }
      for (String path : paths) {
        targets.add(
            Labels.of(
                TargetGroup.ADDRESS,
                host,
                PREFIX + "ingress_scheme",
                scheme,
                PREFIX + "ingress_host",
                host,
                PREFIX + "ingress_path",
                path));
      }
    }
    return new TargetGroup("ingress/" + namespace + "/" + name(meta), targets, group.build());
  }

  /** Equal, or a {@code *.} pattern whose other dot-separated parts equal the host's. */
  private static boolean matchesHostPattern(String pattern, String host) {
    if (pattern.equals(host)) {
      return true;
    }
    String[] patternParts = pattern.split("\\.", -1);
    String[] hostParts = host.split("\\.", -1);
    if (!patternParts[0].equals("*") || patternParts.length != hostParts.length) {
      return false;
    }
    for (int i = 1; i < patternParts.length; i++) {
      if (!patternParts[i].equals(hostParts[i])) {
        return false;
      }
    }
    return true;
  }

  private static String name(JsonNode meta) {
    return meta.path("name").asText();
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
  static void objectMeta(Labels.Builder labels, JsonNode meta, String role) {
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
  static String hostPort(String host, String port) {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }

  /** Prometheus's label name sanitizing: anything but {@code [a-zA-Z0-9_]} becomes {@code _}. */
  static String sanitize(String name) {
    return name.replaceAll("[^a-zA-Z0-9_]", "_");
  }
}
