package io.flightdeck.notify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Set;

/**
 * Chat robots answer HTTP 200 with an error code in the body (a bad signature, a rate limit); this
 * turns a non-zero code into a delivery failure.
 */
final class RobotAnswer {
  private static final ObjectMapper JSON = new ObjectMapper();

  private RobotAnswer() {}

  static void check(String body, String codeField, String messageField, Set<Integer> retryable)
      throws DeliveryException {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (IOException e) {
      throw new DeliveryException("unreadable robot answer: " + body, false, e);
    }
    JsonNode code = root == null ? null : root.get(codeField);
    if (code == null || code.asInt() == 0) {
      return;
    }
    JsonNode message = root.get(messageField);
    throw new DeliveryException(
        "robot answered "
            + codeField
            + "="
            + code.asInt()
            + (message == null ? "" : ": " + message.asText()),
        retryable.contains(code.asInt()));
  }
}
