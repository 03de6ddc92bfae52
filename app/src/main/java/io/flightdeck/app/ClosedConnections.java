package io.flightdeck.app;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Tells whether the client of a request being handled has closed its connection, so that a long
 * query for nobody can stop. Jetty notices a closed connection only at its next read or write,
 * which for a query comes after all the work; Linux shows it at once: the server's side of the
 * socket is in CLOSE_WAIT in {@code /proc/net/tcp}. One scan of those tables answers every question
 * asked within {@link #RESCAN_NANOS}; elsewhere than on Linux no connection is ever seen closed.
 * Thread-safe, and cheap between scans.
 */
final class ClosedConnections {
  private static final List<Path> TABLES =
      List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"));
  private static final long RESCAN_NANOS = 250_000_000L;
  private static final String CLOSE_WAIT = "08";

  private final List<Path> tables;
  private final ReentrantLock scanning = new ReentrantLock();
  private volatile Set<String> closed = Set.of();
  private volatile long scannedAt = System.nanoTime() - RESCAN_NANOS;

  ClosedConnections() {
    this(TABLES);
  }

  /** Over other tables in the kernel's format, for tests. */
  ClosedConnections(List<Path> tables) {
    this.tables = tables;
  }

  /** Whether the peer at {@code remote} has closed its TCP connection to this host's port. */
  boolean isClosed(int localPort, InetAddress remote, int remotePort) {
    if (System.nanoTime() - scannedAt >= RESCAN_NANOS && scanning.tryLock()) {
      try {
        closed = scan();
        scannedAt = System.nanoTime();
      } finally {
        scanning.unlock();
      }
    }
    return closed.contains(key(localPort, remote, remotePort));
  }

  private Set<String> scan() {
    Set<String> found = new HashSet<>();
    for (Path table : tables) {
      List<String> lines;
      try {
        lines = Files.readAllLines(table);
      } catch (IOException e) {
        continue; // not Linux, or no IPv6
      }
      for (int i = 1; i < lines.size(); i++) { // the first line names the columns
        String[] fields = lines.get(i).trim().split("\\s+", 5);
        if (fields.length >= 4 && fields[3].equals(CLOSE_WAIT)) {
          found.add(key(port(fields[1]), address(fields[2]), port(fields[2])));
        }
      }
    }
    return found;
  }

  /** The port of {@code 0100007F:1F90} (IPv4) or a 32-digit IPv6 address and its port, in hex. */
  private static int port(String address) {
    return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1), 16);
  }

  /**
   * The address of {@code 0100007F:1F90}: 4 or 16 bytes in hex, each 32-bit word in the host's
   * (little-endian) order; an IPv4-mapped IPv6 address reads as the IPv4 one, as Java reads it.
   */
  private static InetAddress address(String field) {
    String hex = field.substring(0, field.lastIndexOf(':'));
    byte[] bytes = new byte[hex.length() / 2];
    for (int word = 0; word < bytes.length / 4; word++) {
      for (int b = 0; b < 4; b++) {
        int at = (word * 4 + 3 - b) * 2;
        bytes[word * 4 + b] = (byte) Integer.parseInt(hex.substring(at, at + 2), 16);
      }
    }
    try {
      return InetAddress.getByAddress(bytes);
    } catch (UnknownHostException e) {
      throw new IllegalStateException("not an address: " + field, e); // 4 or 16 bytes always
    }
  }

  private static String key(int localPort, InetAddress remote, int remotePort) {
    return remote.getHostAddress() + " " + remotePort + " " + localPort;
  }
}
