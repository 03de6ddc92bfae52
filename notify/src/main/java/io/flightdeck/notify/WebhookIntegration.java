package io.flightdeck.notify;

import java.util.Map;

/** Posts Alertmanager's webhook JSON. */
final class WebhookIntegration implements Integration {
  private final WebhookConfig config;
  private final HttpPoster poster;

  WebhookIntegration(WebhookConfig config, HttpPoster poster) {
    this.config = config;
    this.poster = poster;
  }

  @Override
  public void notify(Notification n) throws DeliveryException {
    poster.postJson(config.url(), WebhookPayload.encode(n, config.maxAlerts()), Map.of());
  }
}
