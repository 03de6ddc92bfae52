package io.flightdeck.app;

/** A {@code host:port} listen address; an empty host means every interface. */
record ListenAddress(String host, int port) {
  static ListenAddress parse(String text) {
    int colon = text.lastIndexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("listen address \"" + text + "\" must be host:port");
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("listen address \"" + text + "\" has no valid port");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("listen address \"" + text + "\" has no valid port");
    }
    return new ListenAddress(host.isEmpty() ? "0.0.0.0" : host, port);
  }
}
