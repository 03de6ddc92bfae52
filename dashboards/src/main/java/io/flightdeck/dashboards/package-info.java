/**
 * Dashboards as code: one {@link io.flightdeck.dashboards.Dashboard} model fed by Grafana classic,
 * Grafana v1 resource and Perses importers and read by Grafana and Perses exporters; template
 * variables and Grafana's step math; a versioned {@link io.flightdeck.dashboards.DashboardStore}
 * with provisioning from folders.
 */
package io.flightdeck.dashboards;
