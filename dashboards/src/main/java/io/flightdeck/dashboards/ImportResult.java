package io.flightdeck.dashboards;

/** A dashboard read from a document, and the report of what was kept. */
public record ImportResult(Dashboard dashboard, ImportReport report) {}
