package io.flightdeck.config;

import io.flightdeck.config.KubernetesSdConfig.Namespaces;
import io.flightdeck.config.KubernetesSdConfig.Role;
import io.flightdeck.config.KubernetesSdConfig.Selector;
import io.flightdeck.model.GoQuote;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** Decodes the service-discovery lists inlined in a scrape job or an Alertmanager section. */
final class DiscoveryDecoder {
  /** The field names this decoder reads from its parent section. */
  static final Set<String> FIELDS =
      Set.of("static_configs", "file_sd_configs", "http_sd_configs", "kubernetes_sd_configs");

  private static final Set<String> STATIC = Set.of("targets", "labels");
  private static final Set<String> FILE = Set.of("files", "refresh_interval");
  private static final Set<String> HTTP = Set.of("url", "refresh_interval");
  private static final Set<String> KUBERNETES =
      Set.of("role", "api_server", "kubeconfig_file", "namespaces", "selectors");
  private static final Set<String> NAMESPACES = Set.of("names", "own_namespace");
  private static final Set<String> SELECTOR = Set.of("role", "label", "field");
  private static final Pattern FILE_PATTERN =
      Pattern.compile("[^*]*(\\*[^/]*)?\\.(json|yml|yaml|JSON|YML|YAML)");
  private static final Map<Role, Set<Role>> ALLOWED_SELECTORS =
      Map.of(
          Role.POD, EnumSet.of(Role.POD),
          Role.SERVICE, EnumSet.of(Role.SERVICE),
          Role.ENDPOINTS, EnumSet.of(Role.POD, Role.SERVICE, Role.ENDPOINTS),
          Role.ENDPOINTSLICE, EnumSet.of(Role.POD, Role.SERVICE, Role.ENDPOINTSLICE),
          Role.NODE, EnumSet.of(Role.NODE),
          Role.INGRESS, EnumSet.of(Role.INGRESS));

  private DiscoveryDecoder() {}

  /**
   * @param checkTargets whether static targets must be plain {@code host:port} (Prometheus checks
   *     this only where no relabelling could rewrite them)
   */
  static ServiceDiscoveryConfigs decode(Node.Fields parent, boolean checkTargets) {
    List<StaticConfig> statics = new ArrayList<>();
    for (Node item : parent.get("static_configs").items("[]*targetgroup.Group")) {
      statics.add(staticConfig(item, checkTargets));
    }
    List<FileSdConfig> files = new ArrayList<>();
    for (Node item : parent.get("file_sd_configs").items("[]*file.SDConfig")) {
      files.add(fileSd(item));
    }
    List<HttpSdConfig> https = new ArrayList<>();
    for (Node item : parent.get("http_sd_configs").items("[]*http.SDConfig")) {
      https.add(httpSd(item));
    }
    List<KubernetesSdConfig> kubes = new ArrayList<>();
    for (Node item : parent.get("kubernetes_sd_configs").items("[]*kubernetes.SDConfig")) {
      kubes.add(kubernetes(item));
    }
    return new ServiceDiscoveryConfigs(statics, files, https, kubes);
  }

  private static StaticConfig staticConfig(Node node, boolean checkTargets) {
    Node.Fields f = node.fields("targetgroup.Group", STATIC);
    Node targetsNode = f.get("targets");
    List<String> targets = targetsNode.strings();
    if (checkTargets) {
      for (String target : targets) {
        if (target.contains("/")) {
          throw targetsNode.error(GoQuote.quote(target) + " is not a valid hostname");
        }
      }
    }
    return new StaticConfig(targets, ConfigDecoder.labels(f.get("labels")));
  }

  private static FileSdConfig fileSd(Node node) {
    Node.Fields f = node.fields("file.SDConfig", FILE);
    Node filesNode = f.get("files");
    List<Path> files = new ArrayList<>();
    for (Node item : filesNode.items("[]string")) {
      String name = item.string();
      if (!FILE_PATTERN.matcher(name).matches()) {
        throw item.error("path name " + GoQuote.quote(name) + " is not valid for file discovery");
      }
      files.add(item.file());
    }
    if (files.isEmpty()) {
      throw node.error("file service discovery config must contain at least one path name");
    }
    return new FileSdConfig(
        files, f.get("refresh_interval").duration(FileSdConfig.DEFAULT_REFRESH_INTERVAL));
  }

  private static HttpSdConfig httpSd(Node node) {
    Node.Fields f = node.fields("http.SDConfig", HTTP);
    Node urlNode = f.get("url");
    if (urlNode.string().isEmpty()) {
      throw urlNode.error("URL is missing");
    }
    URI url = url(urlNode);
    if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())) {
      throw urlNode.error("URL scheme must be 'http' or 'https'");
    }
    if (url.getHost() == null || url.getHost().isEmpty()) {
      throw urlNode.error("host is missing in URL");
    }
    return new HttpSdConfig(
        url, f.get("refresh_interval").duration(HttpSdConfig.DEFAULT_REFRESH_INTERVAL));
  }

  /** An absolute or relative URL; Go's message shape for what it cannot parse. */
  static URI url(Node node) {
    String text = node.string();
    try {
      return new URI(text);
    } catch (URISyntaxException e) {
      throw node.error("parse " + GoQuote.quote(text) + ": " + e.getReason());
    }
  }

  private static KubernetesSdConfig kubernetes(Node node) {
    Node.Fields f = node.fields("kubernetes.SDConfig", KUBERNETES);
    Node roleNode = f.get("role");
    if (roleNode.string().isEmpty()) {
      throw roleNode.error(
          "role missing (one of: pod, service, endpoints, endpointslice, node, ingress)");
    }
    Role role = role(roleNode);
    Node apiNode = f.get("api_server");
    URI apiServer = apiNode.isNull() ? null : url(apiNode);
    Path kubeconfig = f.get("kubeconfig_file").file();
    if (apiServer != null && kubeconfig != null) {
      throw node.error("cannot use 'kubeconfig_file' and 'api_server' simultaneously");
    }
    Node.Fields ns = f.get("namespaces").fields("kubernetes.NamespaceDiscovery", NAMESPACES);
    Namespaces namespaces =
        new Namespaces(ns.get("names").strings(), ns.get("own_namespace").bool(false));
    if (namespaces.ownNamespace() && apiServer != null) {
      throw node.error("cannot use 'api_server' and 'namespaces.own_namespace' simultaneously");
    }
    if (namespaces.ownNamespace() && kubeconfig != null) {
      throw node.error(
          "cannot use 'kubeconfig_file' and 'namespaces.own_namespace' simultaneously");
    }
    List<Selector> selectors = new ArrayList<>();
    Set<Role> seen = EnumSet.noneOf(Role.class);
    for (Node item : f.get("selectors").items("[]kubernetes.SelectorConfig")) {
      Node.Fields s = item.fields("kubernetes.SelectorConfig", SELECTOR);
      Role selectorRole = role(s.get("role"));
      if (!seen.add(selectorRole)) {
        throw item.error("duplicated selector role: " + selectorRole.text());
      }
      Set<Role> allowed = ALLOWED_SELECTORS.get(role);
      if (!allowed.contains(selectorRole)) {
        throw item.error(role.text() + " role supports only " + joined(allowed) + " selectors");
      }
      selectors.add(new Selector(selectorRole, s.get("label").string(), s.get("field").string()));
    }
    return new KubernetesSdConfig(role, apiServer, kubeconfig, namespaces, selectors);
  }

  private static Role role(Node node) {
    String text = node.string();
    for (Role role : Role.values()) {
      if (role.text().equals(text)) {
        return role;
      }
    }
    throw node.error("unknown Kubernetes SD role " + GoQuote.quote(text));
  }

  /** In Prometheus's order: pod, service, then the role itself. */
  private static String joined(Set<Role> roles) {
    List<String> names = new ArrayList<>();
    for (Role r :
        List.of(
            Role.POD, Role.SERVICE, Role.ENDPOINTSLICE, Role.ENDPOINTS, Role.NODE, Role.INGRESS)) {
      if (roles.contains(r)) {
        names.add(r.text());
      }
    }
    return String.join(", ", names);
  }
}
