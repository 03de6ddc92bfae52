package io.flightdeck.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import io.flightdeck.config.KubernetesSdConfig;
import io.flightdeck.config.KubernetesSdConfig.Role;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * {@code kubernetes_sd_configs} for every role (pod, service, endpoints, endpointslice, node,
 * ingress). The objects are listed, in each namespace or the whole cluster, each kind with the
 * selector configured for its role, then watched: a change is reported within about {@link
 * #WATCH_CHECK} of the API server's event. Every poll still lists everything afresh, the fallback
 * where watching fails and the cure for anything a watch missed. Roles endpoints and endpointslice
 * also follow services and pods, to label targets with the service and the pod behind each address.
 * Groups carry Prometheus's {@code __meta_kubernetes_*} labels.
 */
final class KubernetesDiscoverer extends PollingDiscoverer {
  /** A kind of object: the role its selector is configured under, and where the API lists it. */
  private record Kind(Role selectorRole, String api, String plural) {}

  private static final Kind PODS = new Kind(Role.POD, "/api/v1/", "pods");
  private static final Kind SERVICES = new Kind(Role.SERVICE, "/api/v1/", "services");
  private static final Kind NODES = new Kind(Role.NODE, "/api/v1/", "nodes");
  private static final Kind ENDPOINTS = new Kind(Role.ENDPOINTS, "/api/v1/", "endpoints");
  private static final Kind ENDPOINT_SLICES =
      new Kind(Role.ENDPOINTSLICE, "/apis/discovery.k8s.io/v1/", "endpointslices");
  private static final Kind INGRESSES =
      new Kind(Role.INGRESS, "/apis/networking.k8s.io/v1/", "ingresses");

  /** How often the discoverer's thread looks whether a watch reported a change. */
  static final Duration WATCH_CHECK = Duration.ofMillis(50);

  private final KubernetesSdConfig config;
  private final AtomicBoolean watchedChange = new AtomicBoolean();

  /** By API path; touched by the discoverer's thread, and by {@link #released()} after it. */
  private final Map<String, WatchedObjects> watched = new ConcurrentHashMap<>();

  private KubernetesApi api;

  /** Whether this {@link #read()} follows a watched change rather than the poll. */
  private boolean afterWatchedChange;

  KubernetesDiscoverer(String name, KubernetesSdConfig config, Duration pollInterval) {
    super(name, pollInterval, WATCH_CHECK);
    this.config = config;
  }

  @Override
  boolean changed() {
    afterWatchedChange = watchedChange.getAndSet(false);
    return afterWatchedChange;
  }

  /**
   * Whether every path listed so far has its watch open and settled ({@link
   * WatchedObjects#watchSettled}). Tests wait for it before closing: fabric8's mock API server
   * stalls when a watch closes while it still sends to it.
   */
  boolean watchesSettled() {
    return !watched.isEmpty() && watched.values().stream().allMatch(WatchedObjects::watchSettled);
  }

  @Override
  void released() {
    watched.values().forEach(WatchedObjects::close);
    if (api != null) {
      api.close();
    }
  }

  @Override
  List<TargetGroup> read() throws IOException, InterruptedException, DiscoveryException {
    boolean relist = !afterWatchedChange;
    afterWatchedChange = false;
    if (api == null) {
      api = KubernetesApi.connect(config);
    }
    List<TargetGroup> groups =
        switch (config.role()) {
          case POD -> convert(list(PODS, relist), KubernetesObjects::pod);
          case SERVICE -> convert(list(SERVICES, relist), KubernetesObjects::service);
          case NODE -> convert(list(NODES, relist), KubernetesObjects::node);
          case INGRESS -> convert(list(INGRESSES, relist), KubernetesObjects::ingress);
          case ENDPOINTS -> {
            Map<String, JsonNode> services = byName(list(SERVICES, relist));
            Map<String, JsonNode> pods = byName(list(PODS, relist));
            yield convert(
                list(ENDPOINTS, relist), e -> KubernetesEndpoints.group(e, services, pods));
          }
          case ENDPOINTSLICE -> {
            Map<String, JsonNode> services = byName(list(SERVICES, relist));
            Map<String, JsonNode> pods = byName(list(PODS, relist));
            yield convert(
                list(ENDPOINT_SLICES, relist),
                s -> KubernetesEndpointSlices.group(s, services, pods));
          }
        };
    groups.sort(Comparator.comparing(TargetGroup::source));
    return groups;
  }

  private static List<TargetGroup> convert(
      List<JsonNode> objects, Function<JsonNode, TargetGroup> conversion) {
    List<TargetGroup> groups = new ArrayList<>();
    objects.forEach(object -> groups.add(conversion.apply(object)));
    return groups;
  }

  /** Objects by {@code NAMESPACE/NAME}. */
  private static Map<String, JsonNode> byName(List<JsonNode> objects) {
    Map<String, JsonNode> map = new HashMap<>();
    for (JsonNode object : objects) {
      JsonNode meta = object.path("metadata");
      map.put(meta.path("namespace").asText() + "/" + meta.path("name").asText(), object);
    }
    return map;
  }

  /**
   * Every object of {@code kind} in the configured namespaces that its selector admits, as last
   * listed or watched.
   *
   * @param relist list afresh, rather than only where a watch ended and wants it
   */
  private List<JsonNode> list(Kind kind, boolean relist)
      throws IOException, InterruptedException, DiscoveryException {
    Map<String, String> query = selectors(kind.selectorRole());
    List<JsonNode> objects = new ArrayList<>();
    for (String prefix : prefixes(kind)) {
      WatchedObjects known =
          watched.computeIfAbsent(
              prefix + kind.plural(),
              path -> new WatchedObjects(api, path, query, () -> watchedChange.set(true)));
      if (relist || known.relistDue()) {
        known.relist();
      }
      objects.addAll(known.objects());
    }
    return objects;
  }

  /** The API path for the whole cluster (or nodes), else one path per namespace. */
  private List<String> prefixes(Kind kind) throws IOException {
    Set<String> namespaces = new LinkedHashSet<>(config.namespaces().names());
    if (config.namespaces().ownNamespace()) {
      namespaces.add(Files.readString(KubernetesApi.SERVICE_ACCOUNT.resolve("namespace")).strip());
    }
    if (kind == NODES || namespaces.isEmpty()) {
      return List.of(kind.api());
    }
    return namespaces.stream().map(ns -> kind.api() + "namespaces/" + ns + "/").toList();
  }

  private Map<String, String> selectors(Role role) {
    for (KubernetesSdConfig.Selector selector : config.selectors()) {
      if (selector.role() == role) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("labelSelector", nullToEmpty(selector.label()));
        query.put("fieldSelector", nullToEmpty(selector.field()));
        return query;
      }
    }
    return Map.of();
  }

  private static String nullToEmpty(String text) {
    return text == null ? "" : text;
  }
}
