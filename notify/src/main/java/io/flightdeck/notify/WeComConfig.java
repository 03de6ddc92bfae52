package io.flightdeck.notify;

import java.net.URI;

/** {@code wecom_configs}: a WeCom group robot, its URL carrying the robot's key. */
record WeComConfig(URI url, boolean sendResolved) implements IntegrationConfig {
  static final String DEFAULT_BASE = "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=";

  @Override
  public String kind() {
    return "wecom";
  }
}
