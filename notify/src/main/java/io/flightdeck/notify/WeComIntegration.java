package io.flightdeck.notify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Set;

/** Posts a markdown message to a WeCom group robot; the robot's key in the URL authenticates. */
final class WeComIntegration implements Integration {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** "API frequency out of limit": worth retrying. */
  private static final Set<Integer> RETRYABLE = Set.of(45009);

  private final WeComConfig config;
  private final HttpPoster poster;

  WeComIntegration(WeComConfig config, HttpPoster poster) {
    this.config = config;
    this.poster = poster;
  }

  @Override
  public void notify(Notification n) throws DeliveryException {
    String answer = poster.postJson(config.url(), payload(n), Map.of());
    RobotAnswer.check(answer, "errcode", "errmsg", RETRYABLE);
  }

  String payload(Notification n) {
    ChatMessage message = new ChatMessage(n);
    ObjectNode root = JSON.createObjectNode();
    root.put("msgtype", "markdown");
    root.putObject("markdown").put("content", "**" + message.title() + "**\n" + message.markdown());
    return root.toString();
  }
}
