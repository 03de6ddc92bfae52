package io.flightdeck.notify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** Alertmanager's webhook JSON, version 4. */
final class WebhookPayload {
  private static final ObjectMapper JSON = new ObjectMapper();

  private WebhookPayload() {}

  /** The payload, with at most {@code maxAlerts} alerts (0: all). */
  static String encode(Notification n, int maxAlerts) {
    List<NotifyAlert> alerts = n.alerts();
    int truncated = 0;
    if (maxAlerts > 0 && alerts.size() > maxAlerts) {
      truncated = alerts.size() - maxAlerts;
      alerts = alerts.subList(0, maxAlerts);
    }
    ObjectNode root = JSON.createObjectNode();
    root.put("receiver", n.receiver());
    root.put("status", n.status());
    ArrayNode array = root.putArray("alerts");
    for (NotifyAlert alert : alerts) {
      ObjectNode a = array.addObject();
      a.put("status", n.alertStatus(alert));
      a.set("labels", PostableAlerts.labels(alert.labels()));
      a.set("annotations", PostableAlerts.labels(alert.annotations()));
      a.put("startsAt", Rfc3339.format(alert.startsAtMs()));
      // Like Alertmanager: the end of a firing alert is not known yet.
      a.put(
          "endsAt", alert.resolvedAt(n.nowMs()) ? Rfc3339.format(alert.endsAtMs()) : Rfc3339.ZERO);
      a.put("generatorURL", alert.generatorUrl());
      a.put("fingerprint", alert.fingerprint());
    }
    root.set("groupLabels", PostableAlerts.labels(n.groupLabels()));
    root.set("commonLabels", PostableAlerts.labels(n.commonLabels()));
    root.set("commonAnnotations", PostableAlerts.labels(n.commonAnnotations()));
    root.put("externalURL", n.externalUrl());
    root.put("version", "4");
    root.put("groupKey", n.groupKey());
    root.put("truncatedAlerts", truncated);
    return root.toString();
  }
}
