package io.flightdeck.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free ports on 127.0.0.1 for child processes, which cannot report a port chosen by the OS. */
final class LocalPorts {
  private LocalPorts() {}

  static int free() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
