package io.flightdeck.notify;

import io.flightdeck.config.AlertmanagerConfig;
import io.flightdeck.config.StaticConfig;
import io.flightdeck.model.Labels;
import io.flightdeck.model.relabel.Relabeler;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/** One Alertmanager to post to, and the config section it came from. */
record AlertmanagerEndpoint(URI alertsUri, AlertmanagerConfig config) {
  private static final String API_PATH = "/api/v2/alerts";

  /**
   * The Alertmanagers of a config section's static targets, after its {@code relabel_configs}, as
   * Prometheus derives them: {@code __scheme__}, {@code __address__} and {@code __alerts_path__}.
   */
  static List<AlertmanagerEndpoint> resolve(AlertmanagerConfig config) {
    List<AlertmanagerEndpoint> endpoints = new ArrayList<>();
    for (StaticConfig group : config.serviceDiscovery().staticConfigs()) {
      for (String target : group.targets()) {
        Labels.Builder labels = group.labels().toBuilder();
        labels.set("__address__", target);
        labels.set("__scheme__", config.scheme());
        labels.set("__alerts_path__", alertsPath(config.pathPrefix()));
        Labels relabelled = Relabeler.process(labels.build(), config.relabelConfigs());
        if (relabelled == null) {
          continue;
        }
        URI uri =
            URI.create(
                relabelled.get("__scheme__")
                    + "://"
                    + relabelled.get("__address__")
                    + relabelled.get("__alerts_path__"));
        endpoints.add(new AlertmanagerEndpoint(uri, config));
      }
    }
    return endpoints;
  }

  private static String alertsPath(String prefix) {
    String p = prefix == null ? "" : prefix.strip();
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    if (!p.isEmpty() && !p.startsWith("/")) {
      p = "/" + p;
    }
    return p + API_PATH;
  }
}
