package io.flightdeck.demo;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One scripted incident of the demo: what happens, to whom, when on the simulated clock, and which
 * shipped alerts it must fire.
 *
 * @param id short name, the {@code incident} label of {@code flightdeck_demo_incident_active}
 * @param title one line for people
 * @param run the run it belongs to (a GPU incident belongs to the run using that GPU)
 * @param scope labels an alert of this incident carries (e.g. {@code Hostname} and {@code gpu}, or
 *     {@code run}), to tell its alerts from other incidents'
 * @param start when it begins, on the simulated clock (since the job started)
 * @param end when it stops, on the simulated clock
 * @param expectedAlerts the shipped alerts it must fire
 * @param alsoAllowed alerts it may fire besides, as a real incident of this kind would
 */
public record Incident(
    String id,
    String title,
    String run,
    Map<String, String> scope,
    Duration start,
    Duration end,
    List<String> expectedAlerts,
    List<String> alsoAllowed) {

  public Incident {
    scope = Map.copyOf(scope);
    expectedAlerts = List.copyOf(expectedAlerts);
    alsoAllowed = List.copyOf(alsoAllowed);
  }

  /** Whether simulated time {@code simSeconds} lies inside the incident. */
  public boolean activeAt(double simSeconds) {
    return simSeconds >= start.toSeconds() && simSeconds < end.toSeconds();
  }
}
