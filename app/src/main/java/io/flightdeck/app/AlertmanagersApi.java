package io.flightdeck.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flightdeck.api.ApiExchange;
import io.flightdeck.api.ApiRoute;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/alertmanagers}: the Alertmanagers alerts go to and those that relabelling
 * dropped, in Prometheus's JSON.
 */
final class AlertmanagersApi {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final AlertDelivery delivery;

  AlertmanagersApi(AlertDelivery delivery) {
    this.delivery = delivery;
  }

  List<ApiRoute> routes() {
    return List.of(new ApiRoute("GET", "/api/v1/alertmanagers", this::alertmanagers));
  }

  private void alertmanagers(ApiExchange exchange) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("activeAlertmanagers", urls(delivery.activeAlertmanagers()));
    data.put("droppedAlertmanagers", urls(delivery.droppedAlertmanagers()));
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", "success");
    body.put("data", data);
    try {
      exchange.respond(200, "application/json", JSON.writeValueAsBytes(body));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("maps of strings always serialise", e);
    }
  }

  private static List<Map<String, String>> urls(List<String> urls) {
    return urls.stream().map(url -> Map.of("url", url)).toList();
  }
}
