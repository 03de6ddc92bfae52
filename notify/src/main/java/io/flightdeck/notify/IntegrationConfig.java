package io.flightdeck.notify;

/** One delivery target of a receiver. */
sealed interface IntegrationConfig
    permits WebhookConfig, SlackConfig, FeishuConfig, DingTalkConfig, WeComConfig {
  /** Whether notifications about resolved alerts are sent. */
  boolean sendResolved();

  /** The config key without {@code _configs}, such as {@code webhook}. */
  String kind();
}
