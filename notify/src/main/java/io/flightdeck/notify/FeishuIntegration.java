package io.flightdeck.notify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flightdeck.model.Clock;
import java.util.Map;
import java.util.Set;

/**
 * Posts an interactive card to a Feishu/Lark custom bot, signed when a secret is set (the bot's
 * "signature verification" security setting).
 */
final class FeishuIntegration implements Integration {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Rate limits: worth retrying. */
  private static final Set<Integer> RETRYABLE = Set.of(9499, 11232);

  private final FeishuConfig config;
  private final HttpPoster poster;
  private final Clock clock;

  FeishuIntegration(FeishuConfig config, HttpPoster poster, Clock clock) {
    this.config = config;
    this.poster = poster;
    this.clock = clock;
  }

  @Override
  public void notify(Notification n) throws DeliveryException {
    String answer = poster.postJson(config.url(), payload(n), Map.of());
    RobotAnswer.check(answer, "code", "msg", RETRYABLE);
  }

  String payload(Notification n) {
    ChatMessage message = new ChatMessage(n);
    ObjectNode root = JSON.createObjectNode();
    if (!config.secret().isEmpty()) {
      long seconds = clock.millis() / 1000;
      root.put("timestamp", Long.toString(seconds));
      root.put("sign", Signatures.feishu(seconds, config.secret()));
    }
    root.put("msg_type", "interactive");
    ObjectNode card = root.putObject("card");
    ObjectNode header = card.putObject("header");
    header.putObject("title").put("tag", "plain_text").put("content", message.title());
    header.put("template", message.firing() ? "red" : "green");
    card.putArray("elements").addObject().put("tag", "markdown").put("content", message.markdown());
    return root.toString();
  }
}
