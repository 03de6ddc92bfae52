package io.flightdeck.notify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.flightdeck.model.Clock;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

/**
 * Posts a markdown message to a DingTalk robot; with a secret ("加签"), {@code timestamp} and {@code
 * sign} are added to the URL's query.
 */
final class DingTalkIntegration implements Integration {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** "Sending too fast": worth retrying. */
  private static final Set<Integer> RETRYABLE = Set.of(130101, 410100);

  private final DingTalkConfig config;
  private final HttpPoster poster;
  private final Clock clock;

  DingTalkIntegration(DingTalkConfig config, HttpPoster poster, Clock clock) {
    this.config = config;
    this.poster = poster;
    this.clock = clock;
  }

  @Override
  public void notify(Notification n) throws DeliveryException {
    String answer = poster.postJson(signedUrl(clock.millis()), payload(n), Map.of());
    RobotAnswer.check(answer, "errcode", "errmsg", RETRYABLE);
  }

  URI signedUrl(long nowMillis) {
    if (config.secret().isEmpty()) {
      return config.url();
    }
    String sign =
        URLEncoder.encode(Signatures.dingTalk(nowMillis, config.secret()), StandardCharsets.UTF_8);
    String url = config.url().toString();
    String separator = config.url().getRawQuery() == null ? "?" : "&";
    return URI.create(url + separator + "timestamp=" + nowMillis + "&sign=" + sign);
  }

  String payload(Notification n) {
    ChatMessage message = new ChatMessage(n);
    ObjectNode root = JSON.createObjectNode();
    root.put("msgtype", "markdown");
    root.putObject("markdown")
        .put("title", message.title())
        .put("text", "### " + message.title() + "\n\n" + message.markdown());
    return root.toString();
  }
}
