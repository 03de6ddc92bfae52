package io.flightdeck.config;

import io.flightdeck.model.GoQuote;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Decodes the {@code alerting} section. */
final class AlertingDecoder {
  private static final Set<String> FIELDS = Set.of("alert_relabel_configs", "alertmanagers");
  private static final Set<String> OWN =
      Set.of("scheme", "path_prefix", "timeout", "api_version", "relabel_configs");
  private static final Set<String> ALERTMANAGER = fields();

  private AlertingDecoder() {}

  static AlertingConfig decode(Node node) {
    Node.Fields f = node.fields("config.AlertingConfig", FIELDS);
    List<AlertmanagerConfig> managers = new ArrayList<>();
    for (Node item : f.get("alertmanagers").items("config.AlertmanagerConfigs")) {
      managers.add(alertmanager(item));
    }
    return new AlertingConfig(
        RelabelDecoder.decodeAll(
            f.get("alert_relabel_configs"), "empty or null alert relabeling rule"),
        managers);
  }

  private static AlertmanagerConfig alertmanager(Node node) {
    Node.Fields f = node.fields("config.AlertmanagerConfig", ALERTMANAGER);
    Node schemeNode = f.get("scheme");
    String scheme = schemeNode.string("http");
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw schemeNode.error("scheme must be \"http\" or \"https\", got " + GoQuote.quote(scheme));
    }
    Node versionNode = f.get("api_version");
    String version = versionNode.string(AlertmanagerConfig.API_V2);
    if (!version.equals(AlertmanagerConfig.API_V2)) {
      throw versionNode.error(
          "expected Alertmanager api version to be one of [v2] but got " + version);
    }
    HttpClientConfig http = HttpClientDecoder.decode(f);
    var relabel =
        RelabelDecoder.decodeAll(
            f.get("relabel_configs"), "empty or null Alertmanager target relabeling rule");
    return new AlertmanagerConfig(
        DiscoveryDecoder.decode(f, relabel.isEmpty()),
        http,
        scheme,
        f.get("path_prefix").string(),
        f.get("timeout").duration(AlertmanagerConfig.DEFAULT_TIMEOUT),
        version,
        relabel);
  }

  private static Set<String> fields() {
    Set<String> all = new HashSet<>(OWN);
    all.addAll(HttpClientDecoder.FIELDS);
    all.addAll(DiscoveryDecoder.FIELDS);
    return Set.copyOf(all);
  }
}
