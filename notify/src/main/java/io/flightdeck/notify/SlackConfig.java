package io.flightdeck.notify;

import java.net.URI;

/** {@code slack_configs}: a Slack incoming webhook; channel and username may be empty. */
record SlackConfig(URI apiUrl, String channel, String username, boolean sendResolved)
    implements IntegrationConfig {
  @Override
  public String kind() {
    return "slack";
  }
}
