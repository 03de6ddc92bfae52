package io.flightdeck.rules;

import io.flightdeck.model.Labels;
import io.flightdeck.promql.engine.Sample;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * An alerting rule with Prometheus's state machine: a new alert is pending, fires once it has been
 * active for {@code for}, keeps firing for {@code keep_firing_for} after its series vanished, and
 * once resolved is kept (and re-sent) for 15 minutes.
 */
final class AlertingRule extends Rule {
  static final long RESOLVED_RETENTION_MS = 15 * 60_000L;

  final long holdMs;
  final long keepFiringForMs;
  private final Map<String, Template> labelTemplates = new TreeMap<>();
  private final Map<String, Template> annotationTemplates = new TreeMap<>();

  /** Keyed by the alert's final labels; insertion order keeps output stable. */
  final Map<Labels, ActiveAlert> active = new LinkedHashMap<>();

  /** Whether ALERTS series may be written; false until the for-state was restored. */
  boolean restored;

  AlertingRule(RuleSpec spec, Map<String, String> labels) {
    super(spec, labels);
    this.holdMs = spec.forDuration().toMillis();
    this.keepFiringForMs = spec.keepFiringFor().toMillis();
    String name = "__alert_" + spec.alert();
    labels.forEach((k, v) -> labelTemplates.put(k, Template.parse(name, v)));
    spec.annotations().forEach((k, v) -> annotationTemplates.put(k, Template.parse(name, v)));
  }

  @Override
  List<Sample> eval(RuleContext context, long ts, long queryOffsetMs, int limit) {
    long at = ts - queryOffsetMs;
    List<Sample> result = context.query().query(expr, at);
    Set<Labels> seen = new HashSet<>();
    for (Sample s : result) {
      Map<String, String> sampleLabels = new HashMap<>();
      s.labels().forEach(sampleLabels::put);
      TemplateData data =
          new TemplateData(
              Collections.unmodifiableMap(sampleLabels),
              context.externalLabels(),
              context.externalURL(),
              s.value(),
              ts,
              context.query());
      Labels.Builder b = s.labels().toBuilder().remove(Labels.METRIC_NAME);
      labelTemplates.forEach((k, t) -> b.set(k, expand(t, data)));
      b.set("alertname", spec.alert());
      Labels alertLabels = b.build();
      Map<String, String> annotations = new TreeMap<>();
      annotationTemplates.forEach((k, t) -> annotations.put(k, expand(t, data)));
      if (!seen.add(alertLabels)) {
        throw new IllegalStateException(
            "vector contains metrics with the same labelset after applying alert labels");
      }
      ActiveAlert alert = active.get(alertLabels);
      if (alert != null && alert.state != AlertState.INACTIVE) {
        alert.value = s.value();
        alert.annotations = annotations;
        continue;
      }
      active.put(alertLabels, new ActiveAlert(alertLabels, annotations, s.value(), ts));
    }

    List<Sample> out = new ArrayList<>();
    int activeOrPending = 0;
    for (Iterator<ActiveAlert> it = active.values().iterator(); it.hasNext(); ) {
      ActiveAlert a = it.next();
      if (!seen.contains(a.labels)) {
        boolean keepFiring = false;
        if (a.state == AlertState.FIRING && keepFiringForMs > 0) {
          if (a.keepFiringSince == 0) {
            a.keepFiringSince = ts;
          }
          keepFiring = ts - a.keepFiringSince < keepFiringForMs;
        }
        if (a.state == AlertState.PENDING
            || (a.resolvedAt != 0 && ts - a.resolvedAt > RESOLVED_RETENTION_MS)) {
          it.remove();
        }
        if (a.state != AlertState.INACTIVE && !keepFiring) {
          a.state = AlertState.INACTIVE;
          a.resolvedAt = ts;
        }
        if (!keepFiring) {
          continue;
        }
      } else {
        a.keepFiringSince = 0;
      }
      activeOrPending++;
      if (a.state == AlertState.PENDING && ts - a.activeAt >= holdMs) {
        a.state = AlertState.FIRING;
        a.firedAt = ts;
      }
      if (restored) {
        out.add(new Sample(series("ALERTS", a, a.state.text()), at, 1));
        out.add(new Sample(series("ALERTS_FOR_STATE", a, null), at, a.activeAt / 1000));
      }
    }
    if (limit > 0 && activeOrPending > limit) {
      active.clear();
      throw new IllegalStateException(
          "exceeded limit of %d with %d alerts".formatted(limit, activeOrPending));
    }
    return out;
  }

  private static Labels series(String name, ActiveAlert a, String alertState) {
    Labels.Builder b = a.labels.toBuilder().set(Labels.METRIC_NAME, name);
    if (alertState != null) {
      b.set("alertstate", alertState);
    }
    return b.build();
  }

  /** A template that fails leaves its error in the text, as Prometheus does, not a failed rule. */
  private static String expand(Template t, TemplateData data) {
    try {
      return t.expand(data);
    } catch (TemplateException e) {
      return "<error expanding template: " + e.getMessage() + ">";
    }
  }

  /** The alerts to hand to the sink now, marked as sent (Prometheus's sendAlerts). */
  List<Alert> alertsToSend(long ts, long resendDelayMs, long intervalMs) {
    List<Alert> out = new ArrayList<>();
    for (ActiveAlert a : active.values()) {
      if (a.needsSending(ts, resendDelayMs)) {
        a.lastSentAt = ts;
        a.validUntil = ts + 4 * Math.max(resendDelayMs, intervalMs);
        out.add(a.snapshot());
      }
    }
    return out;
  }

  /** Pending and firing alerts, the ones the API lists. */
  List<Alert> activeAlerts() {
    return active.values().stream()
        .filter(a -> a.state != AlertState.INACTIVE)
        .map(ActiveAlert::snapshot)
        .toList();
  }

  AlertState state() {
    AlertState max = AlertState.INACTIVE;
    for (ActiveAlert a : active.values()) {
      if (a.state.compareTo(max) > 0) {
        max = a.state;
      }
    }
    return max;
  }

  @Override
  RuleSnapshot snapshot() {
    return new RuleSnapshot(
        RuleSnapshot.Type.ALERTING,
        name(),
        expr.toString(),
        holdMs / 1000.0,
        keepFiringForMs / 1000.0,
        Labels.fromMap(labels),
        spec.annotations(),
        state(),
        activeAlerts(),
        health,
        lastError,
        evaluationNanos / 1e9,
        lastEvaluationMs);
  }
}
