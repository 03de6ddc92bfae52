package io.flightdeck.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import io.flightdeck.config.KubernetesSdConfig;
import io.flightdeck.config.KubernetesSdConfig.Role;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code kubernetes_sd_configs} for the roles pod, service and node, by listing the objects on
 * every poll (rather than watching), each namespace in turn or the whole cluster. Groups carry
 * Prometheus's {@code __meta_kubernetes_*} labels. Roles endpoints, endpointslice and ingress are
 * not supported yet and report an error.
 */
final class KubernetesDiscoverer extends PollingDiscoverer {
  private final KubernetesSdConfig config;
  private KubernetesApi api;

  KubernetesDiscoverer(String name, KubernetesSdConfig config, Duration pollInterval) {
    super(name, pollInterval, Duration.ZERO);
    this.config = config;
  }

  @Override
  List<TargetGroup> read() throws IOException, InterruptedException, DiscoveryException {
    if (api == null) {
      api = KubernetesApi.connect(config);
    }
    String resource;
    Function<JsonNode, TargetGroup> convert;
    switch (config.role()) {
      case POD -> {
        resource = "pods";
        convert = KubernetesObjects::pod;
      }
      case SERVICE -> {
        resource = "services";
        convert = KubernetesObjects::service;
      }
      case NODE -> {
        resource = "nodes";
        convert = KubernetesObjects::node;
      }
      default ->
          throw new DiscoveryException(
              "kubernetes role " + config.role().text() + " is not supported yet");
    }
    Map<String, String> query = selectors();
    List<TargetGroup> groups = new ArrayList<>();
    for (String prefix : prefixes()) {
      for (JsonNode item : api.list(prefix + resource, query)) {
        groups.add(convert.apply(item));
      }
    }
    groups.sort(Comparator.comparing(TargetGroup::source));
    return groups;
  }

  /** {@code /api/v1/} for the whole cluster or nodes, else one path per namespace. */
  private List<String> prefixes() throws IOException {
    Set<String> namespaces = new LinkedHashSet<>(config.namespaces().names());
    if (config.namespaces().ownNamespace()) {
      namespaces.add(Files.readString(KubernetesApi.SERVICE_ACCOUNT.resolve("namespace")).strip());
    }
    if (config.role() == Role.NODE || namespaces.isEmpty()) {
      return List.of("/api/v1/");
    }
    return namespaces.stream().map(ns -> "/api/v1/namespaces/" + ns + "/").toList();
  }

  private Map<String, String> selectors() {
    for (KubernetesSdConfig.Selector selector : config.selectors()) {
      if (selector.role() == config.role()) {
        return Map.of(
            "labelSelector", nullToEmpty(selector.label()),
            "fieldSelector", nullToEmpty(selector.field()));
      }
    }
    return Map.of();
  }

  private static String nullToEmpty(String text) {
    return text == null ? "" : text;
  }
}
