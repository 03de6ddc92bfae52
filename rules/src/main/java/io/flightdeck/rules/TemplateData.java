package io.flightdeck.rules;

import java.util.Map;

/**
 * What a rule's label and annotation templates see: {@code $labels}, {@code $externalLabels},
 * {@code $externalURL}, {@code $value}, and for the {@code query} function the engine and the
 * evaluation time.
 */
record TemplateData(
    Map<String, String> labels,
    Map<String, String> externalLabels,
    String externalURL,
    double value,
    long timeMs,
    RuleQuery query) {}
