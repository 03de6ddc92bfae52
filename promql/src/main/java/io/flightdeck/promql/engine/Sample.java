package io.flightdeck.promql.engine;

import io.flightdeck.model.Labels;

/** One float sample of an instant vector: its series labels, timestamp (ms) and value. */
public record Sample(Labels labels, long timestamp, double value) {}
