package io.flightdeck.training;

import java.util.Map;

/**
 * A firing alert that concerns a run, read from the {@code ALERTS} series the rule engine writes.
 *
 * @param activeAtMs when it became active: {@code ALERTS_FOR_STATE}'s value when present, else the
 *     first sample of the current firing streak
 * @param labels the alert's labels, {@code __name__} and {@code alertstate} left out
 */
public record RunAlert(
    String alertname, String severity, String state, long activeAtMs, Map<String, String> labels) {}
