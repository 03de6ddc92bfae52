package io.flightdeck.notify;

import java.net.URI;

/** {@code webhook_configs}: Alertmanager's webhook JSON; {@code maxAlerts} 0 means all. */
record WebhookConfig(URI url, boolean sendResolved, int maxAlerts) implements IntegrationConfig {
  @Override
  public String kind() {
    return "webhook";
  }
}
