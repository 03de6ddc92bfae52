package io.flightdeck.app;

import io.flightdeck.rules.GroupSnapshot;
import io.flightdeck.rules.RuleHealth;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The self-metrics of rule evaluation and alert delivery, under Prometheus's names ({@code
 * prometheus_rule_*}, {@code prometheus_notifications_*}) so that its dashboards and meta-alerts
 * work unchanged, plus the direct receivers' counters by integration and a gauge of unhealthy rules
 * per group, which Prometheus only shows in its API.
 */
final class AlertingMetrics {
  private AlertingMetrics() {}

  static void register(PrometheusRegistry registry, RulesRuntime rules, AlertDelivery delivery) {
    perGroup(
        registry,
        "prometheus_rule_evaluations",
        "The total number of rule evaluations.",
        true,
        rules,
        g -> g.counters().evaluations());
    perGroup(
        registry,
        "prometheus_rule_evaluation_failures",
        "The total number of rule evaluation failures.",
        true,
        rules,
        g -> g.counters().evaluationFailures());
    perGroup(
        registry,
        "prometheus_rule_group_iterations",
        "The total number of scheduled rule group evaluations, whether executed or missed.",
        true,
        rules,
        g -> g.counters().iterations() + g.counters().iterationsMissed());
    perGroup(
        registry,
        "prometheus_rule_group_iterations_missed",
        "The total number of rule group evaluations missed due to slow rule group evaluation.",
        true,
        rules,
        g -> g.counters().iterationsMissed());
    perGroup(
        registry,
        "prometheus_rule_group_last_duration_seconds",
        "The duration of the last rule group evaluation.",
        false,
        rules,
        GroupSnapshot::evaluationTimeSeconds);
    perGroup(
        registry,
        "prometheus_rule_group_last_evaluation_timestamp_seconds",
        "The timestamp of the last rule group evaluation in seconds.",
        false,
        rules,
        g -> g.lastEvaluationMs() / 1000.0);
    perGroup(
        registry,
        "prometheus_rule_group_interval_seconds",
        "The interval of a rule group.",
        false,
        rules,
        GroupSnapshot::intervalSeconds);
    perGroup(
        registry,
        "prometheus_rule_group_rules",
        "The number of rules.",
        false,
        rules,
        g -> g.rules().size());
    perGroup(
        registry,
        "flightdeck_rule_group_unhealthy_rules",
        "Rules of the group whose last evaluation failed (health err in /api/v1/rules).",
        false,
        rules,
        g -> g.rules().stream().filter(r -> r.health() == RuleHealth.ERR).count());

    labelled(
        registry,
        "prometheus_notifications_sent",
        "Total number of alerts sent.",
        "alertmanager",
        cb -> delivery.alertmanagerStats().sent().forEach(cb));
    labelled(
        registry,
        "prometheus_notifications_errors",
        "Total number of sent alerts affected by errors.",
        "alertmanager",
        cb -> delivery.alertmanagerStats().errors().forEach(cb));
    CounterWithCallback.builder()
        .name("prometheus_notifications_dropped")
        .help("Total number of alerts dropped due to errors when sending to Alertmanager.")
        .callback(cb -> cb.call(delivery.alertmanagerStats().dropped()))
        .register(registry);
    gauge(
        registry,
        "prometheus_notifications_queue_length",
        "The number of alert notifications in the queue.",
        d -> d.alertmanagerStats().queueLength(),
        delivery);
    gauge(
        registry,
        "prometheus_notifications_queue_capacity",
        "The capacity of the alert notifications queue.",
        d -> d.alertmanagerStats().queueCapacity(),
        delivery);
    gauge(
        registry,
        "prometheus_notifications_alertmanagers_discovered",
        "The number of alertmanagers discovered and active.",
        d -> d.activeAlertmanagers().size(),
        delivery);
    labelled(
        registry,
        "flightdeck_notifications_sent",
        "Notifications delivered by the direct receivers, by integration.",
        "integration",
        cb -> delivery.notifierStats().sent().forEach(cb));
    labelled(
        registry,
        "flightdeck_notifications_failed",
        "Notifications the direct receivers failed to deliver, by integration.",
        "integration",
        cb -> delivery.notifierStats().failed().forEach(cb));
  }

  private static void perGroup(
      PrometheusRegistry registry,
      String name,
      String help,
      boolean counter,
      RulesRuntime rules,
      ToDoubleFunction<GroupSnapshot> value) {
    // Counter and gauge callbacks share no type; both take (value, label value).
    Consumer<BiConsumer<Double, String>> everyGroup =
        sink -> {
          for (GroupSnapshot g : rules.groups()) {
            sink.accept(value.applyAsDouble(g), groupLabel(g));
          }
        };
    if (counter) {
      CounterWithCallback.builder()
          .name(name)
          .help(help)
          .labelNames("rule_group")
          .callback(cb -> everyGroup.accept(cb::call))
          .register(registry);
    } else {
      GaugeWithCallback.builder()
          .name(name)
          .help(help)
          .labelNames("rule_group")
          .callback(cb -> everyGroup.accept(cb::call))
          .register(registry);
    }
  }

  /** Prometheus's {@code rule_group} label: the file and the group name. */
  private static String groupLabel(GroupSnapshot g) {
    return g.file() + ";" + g.name();
  }

  private static void labelled(
      PrometheusRegistry registry,
      String name,
      String help,
      String label,
      Consumer<BiConsumer<String, Long>> values) {
    CounterWithCallback.builder()
        .name(name)
        .help(help)
        .labelNames(label)
        .callback(cb -> values.accept((key, count) -> cb.call(count, key)))
        .register(registry);
  }

  private static void gauge(
      PrometheusRegistry registry,
      String name,
      String help,
      Function<AlertDelivery, Number> value,
      AlertDelivery delivery) {
    GaugeWithCallback.builder()
        .name(name)
        .help(help)
        .callback(cb -> cb.call(value.apply(delivery).doubleValue()))
        .register(registry);
  }
}
