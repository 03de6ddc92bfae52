package io.flightdeck.scrape;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;

/** Metadata of one metric family as one target's latest scrape declared it. */
public record TargetMetadata(Labels target, String metric, MetricMetadata metadata) {}
