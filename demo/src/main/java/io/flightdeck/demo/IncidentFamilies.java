package io.flightdeck.demo;

import io.flightdeck.collector.host.MetricFamily;
import java.util.ArrayList;
import java.util.List;

/**
 * The demo's ground truth, {@code flightdeck_demo_incident_active{incident,run,title,host,gpu}}: 1
 * while a scripted incident lasts, else 0, so the cockpit can draw each one and a user can check a
 * diagnosis against it.
 */
final class IncidentFamilies {
  static final String NAME = "flightdeck_demo_incident_active";

  private IncidentFamilies() {}

  static List<MetricFamily> render(List<Incident> incidents, double simSeconds) {
    MetricFamily active =
        MetricFamily.gauge(NAME, "1 while the demo's scripted incident lasts (ground truth).");
    for (Incident incident : incidents) {
      List<String> labels =
          new ArrayList<>(
              List.of("incident", incident.id(), "run", incident.run(), "title", incident.title()));
      String instance = incident.scope().get("instance");
      if (instance != null) {
        labels.addAll(List.of("host", instance.substring(0, instance.lastIndexOf(':'))));
      }
      if (incident.scope().containsKey("gpu")) {
        labels.addAll(List.of("gpu", incident.scope().get("gpu")));
      }
      active.add(incident.activeAt(simSeconds) ? 1 : 0, labels.toArray(String[]::new));
    }
    return List.of(active);
  }
}
