package io.flightdeck.scrape;

import io.flightdeck.model.Labels;

/** A discovered target that target relabelling dropped, kept for the targets API. */
public record DroppedTarget(Labels discoveredLabels, String scrapePool) {}
