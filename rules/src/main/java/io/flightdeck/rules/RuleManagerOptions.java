package io.flightdeck.rules;

import io.flightdeck.model.Clock;
import io.flightdeck.storage.Appendable;
import io.flightdeck.storage.Queryable;
import java.time.Duration;
import java.util.Map;

/**
 * How the rule manager is wired and tuned; names follow Prometheus's flags.
 *
 * @param appendable where recorded series, ALERTS and ALERTS_FOR_STATE are written
 * @param queryable where ALERTS_FOR_STATE is read back after a restart
 * @param query how rule expressions are evaluated
 * @param sink where alerts go
 * @param evaluationInterval {@code global.evaluation_interval}: for groups without an interval
 * @param queryOffset {@code global.rule_query_offset}: for groups without a query_offset
 * @param outageTolerance {@code --rules.alert.for-outage-tolerance}
 * @param forGracePeriod {@code --rules.alert.for-grace-period}
 * @param resendDelay {@code --rules.alert.resend-delay}
 */
public record RuleManagerOptions(
    Appendable appendable,
    Queryable queryable,
    RuleQuery query,
    AlertSink sink,
    Clock clock,
    Duration evaluationInterval,
    Duration queryOffset,
    Map<String, String> externalLabels,
    String externalURL,
    Duration outageTolerance,
    Duration forGracePeriod,
    Duration resendDelay) {

  public RuleManagerOptions {
    externalLabels = Map.copyOf(externalLabels);
  }

  /** Prometheus's defaults: 1m interval, no offset, 1h outage tolerance, 10m grace, 1m resend. */
  public static RuleManagerOptions defaults(
      Appendable appendable, Queryable queryable, RuleQuery query, AlertSink sink) {
    return new RuleManagerOptions(
        appendable,
        queryable,
        query,
        sink,
        Clock.system(),
        Duration.ofMinutes(1),
        Duration.ZERO,
        Map.of(),
        "",
        Duration.ofHours(1),
        Duration.ofMinutes(10),
        Duration.ofMinutes(1));
  }

  public RuleManagerOptions withClock(Clock value) {
    return new RuleManagerOptions(
        appendable,
        queryable,
        query,
        sink,
        value,
        evaluationInterval,
        queryOffset,
        externalLabels,
        externalURL,
        outageTolerance,
        forGracePeriod,
        resendDelay);
  }

  public RuleManagerOptions withEvaluationInterval(Duration value) {
    return new RuleManagerOptions(
        appendable,
        queryable,
        query,
        sink,
        clock,
        value,
        queryOffset,
        externalLabels,
        externalURL,
        outageTolerance,
        forGracePeriod,
        resendDelay);
  }

  public RuleManagerOptions withQueryOffset(Duration value) {
    return new RuleManagerOptions(
        appendable,
        queryable,
        query,
        sink,
        clock,
        evaluationInterval,
        value,
        externalLabels,
        externalURL,
        outageTolerance,
        forGracePeriod,
        resendDelay);
  }

  public RuleManagerOptions withExternal(Map<String, String> labels, String url) {
    return new RuleManagerOptions(
        appendable,
        queryable,
        query,
        sink,
        clock,
        evaluationInterval,
        queryOffset,
        labels,
        url,
        outageTolerance,
        forGracePeriod,
        resendDelay);
  }
}
