package io.flightdeck.rules;

import java.util.List;

/**
 * Where alerts leave the rules module: the notifier (Alertmanager, chat robots) in a server,
 * nothing in {@code test rules}. Called on a group's evaluation thread after an alerting rule ran,
 * with the firing alerts due for (re)sending and the alerts resolved within the last 15 minutes;
 * never with an empty list. Implementations must be thread-safe and should not block for long
 * (queue, then return).
 */
@FunctionalInterface
public interface AlertSink {
  /**
   * @param expr the rule's expression, for a link back to the graph
   * @param alerts the alerts to send; the sink may keep them (they are immutable)
   */
  void send(String expr, List<Alert> alerts);

  AlertSink NONE = (expr, alerts) -> {};
}
