package io.flightdeck.notify;

import java.util.Map;

/**
 * Counters of a {@link Notifier}, by integration kind ({@code webhook}, {@code slack}, {@code
 * feishu}, {@code dingtalk}, {@code wecom}) as Alertmanager's {@code
 * alertmanager_notifications_total} and {@code alertmanager_notifications_failed_total}.
 *
 * @param groups aggregation groups currently held ({@code alertmanager_alerts}-like gauge)
 */
public record NotifierStats(Map<String, Long> sent, Map<String, Long> failed, int groups) {
  public NotifierStats {
    sent = Map.copyOf(sent);
    failed = Map.copyOf(failed);
  }
}
