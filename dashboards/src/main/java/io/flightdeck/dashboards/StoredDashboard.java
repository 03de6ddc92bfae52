package io.flightdeck.dashboards;

/**
 * A dashboard as the store holds it: its latest version, folder, and the file it is provisioned
 * from ({@code ""} when it lives only in the data directory).
 */
public record StoredDashboard(
    Dashboard dashboard, String folder, DashboardVersion latest, String provisionedFrom) {
  public boolean provisioned() {
    return !provisionedFrom.isEmpty();
  }
}
