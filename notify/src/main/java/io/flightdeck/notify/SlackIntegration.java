package io.flightdeck.notify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/** Posts one attachment to a Slack incoming webhook, red while firing and green once resolved. */
final class SlackIntegration implements Integration {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final SlackConfig config;
  private final HttpPoster poster;

  SlackIntegration(SlackConfig config, HttpPoster poster) {
    this.config = config;
    this.poster = poster;
  }

  @Override
  public void notify(Notification n) throws DeliveryException {
    poster.postJson(config.apiUrl(), payload(n), Map.of());
  }

  String payload(Notification n) {
    ChatMessage message = new ChatMessage(n);
    ObjectNode root = JSON.createObjectNode();
    if (!config.channel().isEmpty()) {
      root.put("channel", config.channel());
    }
    if (!config.username().isEmpty()) {
      root.put("username", config.username());
    }
    ObjectNode attachment = root.putArray("attachments").addObject();
    attachment.put("color", message.firing() ? "danger" : "good");
    attachment.put("title", message.title());
    if (!message.alertsLink().isEmpty()) {
      attachment.put("title_link", message.alertsLink());
    }
    attachment.put("text", message.slackText());
    attachment.put("fallback", message.title());
    attachment.putArray("mrkdwn_in").add("text");
    return root.toString();
  }
}
