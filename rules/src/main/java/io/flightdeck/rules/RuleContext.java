package io.flightdeck.rules;

import java.util.Map;

/** What rules need from their manager while evaluating. */
record RuleContext(RuleQuery query, Map<String, String> externalLabels, String externalURL) {}
