package io.flightdeck.app;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's HTTP/1.1 server: GET and HEAD of a few exact paths, each answered with a body built
 * on the connection's own thread, blocked in a read between requests. A scrape over a kept-alive
 * connection thus wakes one thread once. The JDK's server woke its selector thread for each request
 * and again every second to check for idle connections, and re-registered the connection with the
 * selector after each exchange; on a small VM each wake-up costs a sizeable share of a collection
 * (bench/README.md, agent section). Request bodies are not accepted (no endpoint takes one);
 * chunked requests and oversized heads are refused and the connection closed.
 */
final class AgentHttpServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AgentHttpServer.class);

  /** Connections beyond this are closed at once: a node agent has a scraper or two. */
  static final int MAX_CONNECTIONS = 32;

  /** A kept-alive connection idle this long is closed, as Prometheus's own idle limit. */
  private static final int IDLE_TIMEOUT_MS = 5 * 60 * 1000;

  private static final int MAX_HEAD_BYTES = 8 * 1024;

  /**
   * A response up to this size (the agent's body is about 90 KB with eight GPUs) is copied into the
   * connection's buffer and goes out in one write: building one array of head and body allocated
   * and zeroed a body's size per scrape. A larger one goes out in two writes.
   */
  private static final int RESPONSE_BUFFER_BYTES = 256 * 1024;

  /** RFC 9110's IMF-fixdate, for the Date header an origin server with a clock must send. */
  private static final DateTimeFormatter HTTP_DATE =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US)
          .withZone(ZoneOffset.UTC);

  /** The Date header line of an epoch second, formatted once for all responses in it. */
  private record DateLine(long second, String line) {}

  /** Builds the body of one response. */
  @FunctionalInterface
  interface Body {
    byte[] get();
  }

  private final Map<String, Body> routes;
  private final String contentType;
  private final ServerSocket listener;
  private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
  private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
  private Thread acceptor;
  private volatile DateLine date = new DateLine(-1, "");

  /** Binds {@code host:port} (port 0: any free port); serves nothing before {@link #start()}. */
  AgentHttpServer(String host, int port, Map<String, Body> routes, String contentType)
      throws IOException {
    this.routes = Map.copyOf(routes);
    this.contentType = contentType;
    listener = new ServerSocket();
    listener.bind(new InetSocketAddress(host, port), 16);
  }

  void start() {
    acceptor = new Thread(this::accept, "agent-http-accept");
    acceptor.start();
  }

  int port() {
    return listener.getLocalPort();
  }

  private void accept() {
    int next = 0;
    while (!listener.isClosed()) {
      Socket socket;
      try {
        socket = listener.accept();
      } catch (IOException e) {
        if (!listener.isClosed()) {
          LOG.warn("accepting a connection: {}", e.toString());
        }
        continue;
      }
      if (connections.size() >= MAX_CONNECTIONS) {
        closeQuietly(socket);
        continue;
      }
      connections.add(socket);
      if (listener.isClosed()) { // accepted as close() went over the connections
        closeQuietly(socket);
        return;
      }
      Thread thread = new Thread(() -> serve(socket), "agent-http-" + next++);
      threads.add(thread);
      thread.start();
    }
  }

  /** Answers requests on {@code socket} until the peer closes it, asks to, or idles too long. */
  private void serve(Socket socket) {
    try (socket) {
      socket.setSoTimeout(IDLE_TIMEOUT_MS);
      socket.setTcpNoDelay(true);
      InputStream in = new BufferedInputStream(socket.getInputStream(), MAX_HEAD_BYTES);
      OutputStream out = new BufferedOutputStream(socket.getOutputStream(), RESPONSE_BUFFER_BYTES);
      while (true) {
        HttpRequestHead head = HttpRequestHead.read(in, MAX_HEAD_BYTES);
        if (head == null) {
          return; // closed between requests
        }
        if (!head.valid()) {
          send(out, "400 Bad Request", "", new byte[0], false, false);
          return;
        }
        in.skipNBytes(head.contentLength());
        respond(head, out);
        if (!head.keepAlive()) {
          return;
        }
      }
    } catch (IOException e) {
      // A peer gone mid-request, an idle timeout, or the server closing: nothing to answer.
    } finally {
      connections.remove(socket);
      threads.remove(Thread.currentThread());
    }
  }

  private void respond(HttpRequestHead head, OutputStream out) throws IOException {
    Body body = routes.get(head.path());
    boolean keepAlive = head.keepAlive();
    if (body == null) {
      send(out, "404 Not Found", "", new byte[0], false, keepAlive);
      return;
    }
    boolean isHead = head.method().equals("HEAD");
    if (!isHead && !head.method().equals("GET")) {
      send(out, "405 Method Not Allowed", "Allow: GET, HEAD\r\n", new byte[0], false, keepAlive);
      return;
    }
    byte[] bytes;
    try {
      bytes = body.get();
    } catch (RuntimeException e) {
      LOG.warn("{} {} failed: {}", head.method(), head.path(), e.toString());
      send(out, "500 Internal Server Error", "", new byte[0], false, keepAlive);
      return;
    }
    send(out, "200 OK", "Content-Type: " + contentType + "\r\n", bytes, isHead, keepAlive);
  }

  private String dateLine() {
    long second = System.currentTimeMillis() / 1000;
    DateLine current = date;
    if (current.second() != second) {
      current =
          new DateLine(second, "Date: " + HTTP_DATE.format(Instant.ofEpochSecond(second)) + "\r\n");
      date = current;
    }
    return current.line();
  }

  /** Status line, headers and body through {@code out}'s buffer, so that one write sends them. */
  private void send(
      OutputStream out,
      String status,
      String headers,
      byte[] body,
      boolean headOnly,
      boolean keepAlive)
      throws IOException {
    byte[] head =
        ("HTTP/1.1 "
                + status
                + "\r\n"
                + dateLine()
                + headers
                + "Content-Length: "
                + body.length
                + "\r\n"
                + (keepAlive ? "" : "Connection: close\r\n")
                + "\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    out.write(head);
    if (!headOnly) {
      out.write(body);
    }
    out.flush();
  }

  /** Stops accepting, closes every connection and waits for requests being answered. */
  @Override
  public void close() {
    closeQuietly(listener);
    connections.forEach(AgentHttpServer::closeQuietly);
    try {
      if (acceptor != null) {
        acceptor.join();
      }
      for (Thread thread : threads) {
        thread.join();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      // Closing to stop: a failure leaves nothing to do.
    }
  }
}
