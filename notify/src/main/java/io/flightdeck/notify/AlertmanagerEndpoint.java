package io.flightdeck.notify;

import io.flightdeck.config.AlertmanagerConfig;
import io.flightdeck.discovery.TargetGroup;
import io.flightdeck.model.Labels;
import io.flightdeck.model.relabel.Relabeler;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One Alertmanager to post to, and the config section it came from. */
record AlertmanagerEndpoint(URI alertsUri, AlertmanagerConfig config) {
  private static final Logger log = LoggerFactory.getLogger(AlertmanagerEndpoint.class);
  private static final String API_PATH = "/api/v2/alerts";
  private static final String SCHEME = "__scheme__";
  private static final String ALERTS_PATH = "__alerts_path__";

  /** The Alertmanagers relabelling kept, and the URLs of those it dropped. */
  record Resolution(List<AlertmanagerEndpoint> active, List<URI> dropped) {}

  /**
   * The Alertmanagers of a config section's discovered groups, after its {@code relabel_configs},
   * as Prometheus derives them: target labels over group labels, with {@code __scheme__} and {@code
   * __alerts_path__} from the section, then relabelled; the URL is built from {@code __scheme__},
   * {@code __address__} and {@code __alerts_path__}. An Alertmanager found twice is posted to once.
   */
  static Resolution resolve(AlertmanagerConfig config, List<TargetGroup> groups) {
    Map<URI, AlertmanagerEndpoint> active = new LinkedHashMap<>();
    Map<URI, URI> dropped = new LinkedHashMap<>();
    for (TargetGroup group : groups) {
      for (Labels target : group.targets()) {
        Labels.Builder labels = target.toBuilder();
        labels.set(SCHEME, config.scheme());
        labels.set(ALERTS_PATH, alertsPath(config.pathPrefix()));
        group
            .labels()
            .forEach(
                (name, value) -> {
                  if (target.get(name) == null) {
                    labels.set(name, value);
                  }
                });
        Labels discovered = labels.build();
        Labels relabelled = Relabeler.process(discovered, config.relabelConfigs());
        if (relabelled == null) {
          try {
            URI uri = uri(discovered);
            dropped.put(uri, uri);
          } catch (IllegalArgumentException e) {
            // A dropped target with an unusable address is not worth listing.
          }
          continue;
        }
        try {
          URI uri = uri(relabelled);
          active.putIfAbsent(uri, new AlertmanagerEndpoint(uri, config));
        } catch (IllegalArgumentException e) {
          log.warn("skipping Alertmanager {}: invalid URL: {}", relabelled, e.getMessage());
        }
      }
    }
    return new Resolution(List.copyOf(active.values()), new ArrayList<>(dropped.values()));
  }

  private static URI uri(Labels labels) {
    return URI.create(
        labels.get(SCHEME) + "://" + labels.get(TargetGroup.ADDRESS) + labels.get(ALERTS_PATH));
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
