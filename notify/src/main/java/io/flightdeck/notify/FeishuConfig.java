package io.flightdeck.notify;

import java.net.URI;

/** {@code feishu_configs}: a Feishu/Lark custom bot; {@code secret} empty when unsigned. */
record FeishuConfig(URI url, String secret, boolean sendResolved) implements IntegrationConfig {
  @Override
  public String kind() {
    return "feishu";
  }
}
