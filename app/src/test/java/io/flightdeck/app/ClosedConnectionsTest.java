package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClosedConnectionsTest {
  @TempDir Path dir;

  @Test
  void aConnectionInCloseWaitIsClosedByItsPeerWhetherIpv4OrIpv6() throws Exception {
    Path tcp = dir.resolve("tcp");
    Path tcp6 = dir.resolve("tcp6");
    String header = "  sl  local_address rem_address   st tx_queue rx_queue\n";
    Files.writeString(
        tcp,
        header
            + "   0: 0100007F:2573 0100007F:C350 08 00000000:00000000 00:00000000\n"
            + "   1: 0100007F:2573 0100007F:C351 01 00000000:00000000 00:00000000\n");
    Files.writeString(
        tcp6,
        header
            + "   0: 0000000000000000FFFF00000100007F:2573 0000000000000000FFFF00000100007F:C352"
            + " 08 00000000:00000000\n");
    ClosedConnections connections = new ClosedConnections(List.of(tcp, tcp6, dir.resolve("none")));
    InetAddress loopback = InetAddress.getByName("127.0.0.1");
    assertThat(connections.isClosed(0x2573, loopback, 0xC350)).isTrue();
    assertThat(connections.isClosed(0x2573, loopback, 0xC351)).as("established").isFalse();
    assertThat(connections.isClosed(0x2573, loopback, 0xC352)).as("IPv4-mapped").isTrue();
    assertThat(connections.isClosed(0x2573, loopback, 0xC353)).as("unknown").isFalse();
    assertThat(connections.isClosed(0x2573, InetAddress.getByName("10.0.0.6"), 0xC350))
        .as("another client that happens to use the same port")
        .isFalse();
  }

  @Test
  void onLinuxARealClientThatClosesIsSeen() throws Exception {
    // Elsewhere nothing is ever seen closed, which the server copes with.
    assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")), "Linux's /proc/net/tcp");
    ClosedConnections connections = new ClosedConnections();
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
      try (Socket accepted = server.accept()) {
        InetAddress peer = accepted.getInetAddress();
        assertThat(connections.isClosed(accepted.getLocalPort(), peer, accepted.getPort()))
            .isFalse();
        client.close();
        InputStream in = accepted.getInputStream();
        // Bounded: the FIN is in CLOSE_WAIT long before, and a read of -1 proves it arrived.
        assertThat(in.read()).isEqualTo(-1);
        boolean seen = false;
        for (int i = 0; i < 100 && !seen; i++) {
          seen = connections.isClosed(accepted.getLocalPort(), peer, accepted.getPort());
          Thread.sleep(50);
        }
        assertThat(seen).isTrue();
      }
    }
  }
}
