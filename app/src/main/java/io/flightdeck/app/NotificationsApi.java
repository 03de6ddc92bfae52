package io.flightdeck.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flightdeck.api.ApiExchange;
import io.flightdeck.api.ApiRoute;
import io.flightdeck.notify.DeliveryHistory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/notifications}: the recent deliveries to the {@code notifications} section's
 * receivers, newest first, each with its result: the cockpit's notification log.
 */
final class NotificationsApi {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final AlertDelivery delivery;

  NotificationsApi(AlertDelivery delivery) {
    this.delivery = delivery;
  }

  List<ApiRoute> routes() {
    return List.of(new ApiRoute("GET", "/api/v1/notifications", this::notifications));
  }

  private void notifications(ApiExchange exchange) {
    List<Map<String, Object>> data = new ArrayList<>();
    for (DeliveryHistory.Delivery d : delivery.recentDeliveries()) {
      Map<String, Object> item = new LinkedHashMap<>();
      item.put("time", d.timeMs() / 1000.0);
      item.put("receiver", d.receiver());
      item.put("integration", d.integration());
      item.put("status", d.status());
      List<Map<String, Object>> alerts = new ArrayList<>();
      for (DeliveryHistory.DeliveredAlert a : d.alerts()) {
        Map<String, Object> alert = new LinkedHashMap<>();
        alert.put("alertname", a.labels().get("alertname"));
        alert.put("status", a.status());
        Map<String, String> labels = new LinkedHashMap<>();
        a.labels().forEach(labels::put);
        alert.put("labels", labels);
        alerts.add(alert);
      }
      item.put("alerts", alerts);
      item.put("ok", d.ok());
      item.put("error", d.error());
      data.add(item);
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", "success");
    body.put("data", data);
    try {
      exchange.respond(200, "application/json", JSON.writeValueAsBytes(body));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("maps of strings and numbers always serialise", e);
    }
  }
}
