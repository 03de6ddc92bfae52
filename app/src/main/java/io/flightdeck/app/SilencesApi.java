package io.flightdeck.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flightdeck.api.ApiExchange;
import io.flightdeck.api.ApiReplies;
import io.flightdeck.api.ApiRoute;
import io.flightdeck.notify.AlertmanagerSilences;
import io.flightdeck.notify.AlertmanagerSilences.SilenceException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * Silences for the cockpit, kept where they belong: in the Alertmanager that alerts go to.
 *
 * <ul>
 *   <li>{@code GET /api/v1/silences}: {@code {"alertmanager": <its API URL or null>, "silences":
 *       [Alertmanager's silences as it writes them]}}
 *   <li>{@code POST /api/v1/silences} with Alertmanager's postable silence: {@code {"silenceID"}}
 *   <li>{@code DELETE /api/v1/silences/{id}}: the silence expires now
 * </ul>
 *
 * With no Alertmanager configured the list is empty and changes answer 503 saying so;
 * Alertmanager's refusals come back as 400 with its message, and an unreachable one as 503 naming
 * it.
 */
final class SilencesApi {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String NONE =
      "no Alertmanager is configured: silences live in Alertmanager (alerting.alertmanagers in"
          + " the configuration)";

  private final AlertDelivery delivery;

  SilencesApi(AlertDelivery delivery) {
    this.delivery = delivery;
  }

  List<ApiRoute> routes() {
    return List.of(
        new ApiRoute("GET", "/api/v1/silences", this::list),
        new ApiRoute("POST", "/api/v1/silences", this::create),
        new ApiRoute("DELETE", "/api/v1/silences/{id}", this::expire));
  }

  private void list(ApiExchange exchange) {
    Optional<AlertmanagerSilences> silences = delivery.silences();
    if (silences.isEmpty()) {
      ApiReplies.success(
          exchange,
          out -> {
            out.writeStartObject();
            out.writeNullField("alertmanager");
            out.writeArrayFieldStart("silences");
            out.writeEndArray();
            out.writeEndObject();
          });
      return;
    }
    AlertmanagerSilences am = silences.get();
    try {
      String listed = am.list();
      ApiReplies.success(
          exchange,
          out -> {
            out.writeStartObject();
            out.writeStringField("alertmanager", am.alertmanager());
            out.writeFieldName("silences");
            out.writeRawValue(listed);
            out.writeEndObject();
          });
    } catch (SilenceException e) {
      refused(exchange, e);
    }
  }

  private void create(ApiExchange exchange) {
    Optional<AlertmanagerSilences> silences = delivery.silences();
    if (silences.isEmpty()) {
      ApiReplies.unavailable(exchange, NONE);
      return;
    }
    String body = new String(exchange.body(), StandardCharsets.UTF_8);
    JsonNode silence;
    try {
      silence = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      ApiReplies.badData(
          exchange, "the silence is not JSON: " + e.getOriginalMessage() + " " + where(e));
      return;
    }
    if (silence == null || !silence.isObject()) {
      ApiReplies.badData(exchange, "the silence must be a JSON object with matchers");
      return;
    }
    try {
      String created = silences.get().create(JSON.writeValueAsString(silence));
      ApiReplies.success(exchange, out -> out.writeRawValue(created));
    } catch (SilenceException e) {
      refused(exchange, e);
    } catch (IOException e) {
      ApiReplies.badData(exchange, "the silence could not be written: " + e.getMessage());
    }
  }

  private void expire(ApiExchange exchange) {
    Optional<AlertmanagerSilences> silences = delivery.silences();
    if (silences.isEmpty()) {
      ApiReplies.unavailable(exchange, NONE);
      return;
    }
    try {
      silences.get().expire(exchange.pathParam("id"));
      ApiReplies.success(exchange, out -> out.writeNull());
    } catch (SilenceException e) {
      refused(exchange, e);
    }
  }

  /** Alertmanager judged the request (4xx): the user's to fix; anything else: Alertmanager's. */
  private static void refused(ApiExchange exchange, SilenceException e) {
    if (e.status() / 100 == 4) {
      ApiReplies.badData(exchange, e.getMessage());
    } else {
      ApiReplies.unavailable(exchange, e.getMessage());
    }
  }

  private static String where(IOException e) {
    if (e instanceof JsonProcessingException p && p.getLocation() != null) {
      return "at line " + p.getLocation().getLineNr() + ", column " + p.getLocation().getColumnNr();
    }
    return "";
  }
}
