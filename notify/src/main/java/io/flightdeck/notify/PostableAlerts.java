package io.flightdeck.notify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flightdeck.model.Labels;
import java.util.List;

/** The body of {@code POST /api/v2/alerts}: a JSON array of postable alerts. */
final class PostableAlerts {
  private static final ObjectMapper JSON = new ObjectMapper();

  private PostableAlerts() {}

  static String encode(List<NotifyAlert> alerts) {
    ArrayNode array = JSON.createArrayNode();
    for (NotifyAlert alert : alerts) {
      ObjectNode node = array.addObject();
      node.set("labels", labels(alert.labels()));
      node.set("annotations", labels(alert.annotations()));
      if (alert.startsAtMs() > 0) {
        node.put("startsAt", Rfc3339.format(alert.startsAtMs()));
      }
      if (alert.endsAtMs() > 0) {
        node.put("endsAt", Rfc3339.format(alert.endsAtMs()));
      }
      if (!alert.generatorUrl().isEmpty()) {
        node.put("generatorURL", alert.generatorUrl());
      }
    }
    return array.toString();
  }

  static ObjectNode labels(Labels labels) {
    ObjectNode node = JSON.createObjectNode();
    labels.forEach(node::put);
    return node;
  }
}
