package io.flightdeck.exposition;

import io.flightdeck.model.Labels;
import java.util.OptionalLong;

/** An OpenMetrics exemplar: a sample of a trace, attached to a counter or bucket sample. */
public record Exemplar(Labels labels, double value, OptionalLong timestampMs) {}
