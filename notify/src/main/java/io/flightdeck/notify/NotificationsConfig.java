package io.flightdeck.notify;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The validated {@code notifications} section: a routing tree, receivers and inhibition rules in
 * Alertmanager's format, plus Flightdeck's chat robots. Immutable.
 */
public final class NotificationsConfig {
  /** No {@code notifications} section: direct notifications are off. */
  public static final NotificationsConfig NONE =
      new NotificationsConfig(null, List.of(), List.of(), Duration.ofMinutes(5));

  private final Route route;
  private final List<Receiver> receivers;
  private final List<InhibitRule> inhibitRules;
  private final Duration resolveTimeout;

  NotificationsConfig(
      Route route,
      List<Receiver> receivers,
      List<InhibitRule> inhibitRules,
      Duration resolveTimeout) {
    this.route = route;
    this.receivers = List.copyOf(receivers);
    this.inhibitRules = List.copyOf(inhibitRules);
    this.resolveTimeout = resolveTimeout;
  }

  /**
   * Validates the raw section as {@code Config.notifications()} holds it.
   *
   * @throws NotificationsConfigException naming the field path of the first problem
   */
  public static NotificationsConfig parse(Map<String, Object> section) {
    return NotificationsParser.parse(section);
  }

  /** Whether a routing tree is configured. */
  public boolean enabled() {
    return route != null;
  }

  /** Receiver names, in config order. */
  public List<String> receiverNames() {
    return receivers.stream().map(Receiver::name).toList();
  }

  Route route() {
    return route;
  }

  List<Receiver> receivers() {
    return receivers;
  }

  List<InhibitRule> inhibitRules() {
    return inhibitRules;
  }

  /** Applied to alerts that arrive without an end time. */
  Duration resolveTimeout() {
    return resolveTimeout;
  }
}
