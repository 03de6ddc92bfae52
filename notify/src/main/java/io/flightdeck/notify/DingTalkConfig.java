package io.flightdeck.notify;

import java.net.URI;

/** {@code dingtalk_configs}: a DingTalk robot; {@code secret} empty when unsigned. */
record DingTalkConfig(URI url, String secret, boolean sendResolved) implements IntegrationConfig {
  @Override
  public String kind() {
    return "dingtalk";
  }
}
