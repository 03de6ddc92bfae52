package io.flightdeck.training;

import io.flightdeck.model.Labels;

/** The host a series was measured on, read from its labels. */
final class Hosts {
  private Hosts() {}

  /**
   * {@code Hostname} (dcgm-exporter, our agent), else the host part of {@code instance}, else
   * {@code host}, {@code hostname} or {@code node}; empty when none.
   */
  static String of(Labels labels) {
    String hostname = labels.get("Hostname");
    if (!hostname.isEmpty()) {
      return hostname;
    }
    String instance = labels.get("instance");
    if (!instance.isEmpty()) {
      return hostPart(instance);
    }
    for (String name : new String[] {"host", "hostname", "node"}) {
      String value = labels.get(name);
      if (!value.isEmpty()) {
        return value;
      }
    }
    return "";
  }

  /** {@code node-0:9400} gives {@code node-0}, {@code [::1]:80} gives {@code ::1}. */
  static String hostPart(String instance) {
    if (instance.startsWith("[")) {
      int close = instance.indexOf(']');
      return close > 0 ? instance.substring(1, close) : instance;
    }
    int colon = instance.lastIndexOf(':');
    boolean onePort = colon > 0 && instance.indexOf(':') == colon;
    return onePort ? instance.substring(0, colon) : instance;
  }

  /** Both names a GPU series may give its host: {@code Hostname} and the instance's host. */
  static java.util.Set<String> allOf(Labels labels) {
    java.util.Set<String> names = new java.util.LinkedHashSet<>();
    String hostname = labels.get("Hostname");
    if (!hostname.isEmpty()) {
      names.add(hostname);
    }
    String instance = labels.get("instance");
    if (!instance.isEmpty()) {
      names.add(hostPart(instance));
    }
    return names;
  }
}
