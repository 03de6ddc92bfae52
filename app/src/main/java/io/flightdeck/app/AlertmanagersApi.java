package io.flightdeck.app;

import com.fasterxml.jackson.core.JsonGenerator;
import io.flightdeck.api.ApiExchange;
import io.flightdeck.api.ApiReplies;
import io.flightdeck.api.ApiRoute;
import java.io.IOException;
import java.util.List;

/**
 * {@code GET /api/v1/alertmanagers}: the Alertmanagers alerts go to and those that relabelling
 * dropped, in Prometheus's JSON.
 */
final class AlertmanagersApi {
  private final AlertDelivery delivery;

  AlertmanagersApi(AlertDelivery delivery) {
    this.delivery = delivery;
  }

  List<ApiRoute> routes() {
    return List.of(new ApiRoute("GET", "/api/v1/alertmanagers", this::alertmanagers));
  }

  private void alertmanagers(ApiExchange exchange) {
    ApiReplies.success(
        exchange,
        out -> {
          out.writeStartObject();
          urls(out, "activeAlertmanagers", delivery.activeAlertmanagers());
          urls(out, "droppedAlertmanagers", delivery.droppedAlertmanagers());
          out.writeEndObject();
        });
  }

  private static void urls(JsonGenerator out, String field, List<String> urls) throws IOException {
    out.writeArrayFieldStart(field);
    for (String url : urls) {
      out.writeStartObject();
      out.writeStringField("url", url);
      out.writeEndObject();
    }
    out.writeEndArray();
  }
}
