package io.flightdeck.app;

import com.fasterxml.jackson.core.JsonGenerator;
import io.flightdeck.api.ApiExchange;
import io.flightdeck.api.ApiReplies;
import io.flightdeck.api.ApiRoute;
import io.flightdeck.notify.DeliveryHistory;
import java.io.IOException;
import java.util.List;

/**
 * {@code GET /api/v1/notifications}: the recent deliveries to the {@code notifications} section's
 * receivers, newest first, each with its result: the cockpit's notification log.
 */
final class NotificationsApi {
  private final AlertDelivery delivery;

  NotificationsApi(AlertDelivery delivery) {
    this.delivery = delivery;
  }

  List<ApiRoute> routes() {
    return List.of(new ApiRoute("GET", "/api/v1/notifications", this::notifications));
  }

  private void notifications(ApiExchange exchange) {
    List<DeliveryHistory.Delivery> deliveries = delivery.recentDeliveries();
    ApiReplies.success(
        exchange,
        out -> {
          out.writeStartArray();
          for (DeliveryHistory.Delivery d : deliveries) {
            write(out, d);
          }
          out.writeEndArray();
        });
  }

  private static void write(JsonGenerator out, DeliveryHistory.Delivery d) throws IOException {
    out.writeStartObject();
    out.writeNumberField("time", d.timeMs() / 1000.0);
    out.writeStringField("receiver", d.receiver());
    out.writeStringField("integration", d.integration());
    out.writeStringField("status", d.status());
    out.writeArrayFieldStart("alerts");
    for (DeliveryHistory.DeliveredAlert a : d.alerts()) {
      out.writeStartObject();
      out.writeStringField("alertname", a.labels().get("alertname"));
      out.writeStringField("status", a.status());
      out.writeObjectFieldStart("labels");
      a.labels().forEach((name, value) -> field(out, name, value));
      out.writeEndObject();
      out.writeEndObject();
    }
    out.writeEndArray();
    out.writeBooleanField("ok", d.ok());
    out.writeStringField("error", d.error());
    out.writeEndObject();
  }

  private static void field(JsonGenerator out, String name, String value) {
    try {
      out.writeStringField(name, value);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e); // the generator writes to memory
    }
  }
}
