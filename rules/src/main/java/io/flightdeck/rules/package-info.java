/**
 * Prometheus rules for Flightdeck: rule files ({@link io.flightdeck.rules.RuleFileParser}),
 * evaluation of recording and alerting rules with Prometheus's semantics ({@link
 * io.flightdeck.rules.RuleManager}), the {@code /api/v1/rules} and {@code /api/v1/alerts} JSON
 * ({@link io.flightdeck.rules.RulesJson}), and promtool's {@code check rules} and {@code test
 * rules} ({@link io.flightdeck.rules.RuleChecker}, {@link io.flightdeck.rules.RuleUnitTester}).
 *
 * <p>The module queries through {@link io.flightdeck.rules.RuleQuery}, writes through the storage
 * seam's {@code Appendable}, and hands alerts to an {@link io.flightdeck.rules.AlertSink}; it never
 * sees the notifier or the database.
 */
package io.flightdeck.rules;
