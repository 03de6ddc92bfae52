package io.flightdeck.app;

import java.io.IOException;
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
  private volatile Set<Long> closed = Set.of();
  private volatile long scannedAt = System.nanoTime() - RESCAN_NANOS;

  ClosedConnections() {
    this(TABLES);
  }

  /** Over other tables in the kernel's format, for tests. */
  ClosedConnections(List<Path> tables) {
    this.tables = tables;
  }

  /** Whether the peer has closed the TCP connection between these two ports of this host. */
  boolean isClosed(int localPort, int remotePort) {
    if (System.nanoTime() - scannedAt >= RESCAN_NANOS && scanning.tryLock()) {
      try {
        closed = scan();
        scannedAt = System.nanoTime();
      } finally {
        scanning.unlock();
      }
    }
    return closed.contains(key(localPort, remotePort));
  }

  private Set<Long> scan() {
    Set<Long> found = new HashSet<>();
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
          found.add(key(port(fields[1]), port(fields[2])));
        }
      }
    }
    return found;
  }

  /** The port of {@code 0100007F:1F90} (IPv4) or a 32-digit IPv6 address and its port, in hex. */
  private static int port(String address) {
    return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1), 16);
  }

  private static long key(int localPort, int remotePort) {
    return ((long) localPort << 16) | remotePort;
  }
}
