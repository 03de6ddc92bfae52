package io.flightdeck.scrape;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scrape target written on a bare socket, for what an HTTP server library hides: it counts the
 * connections it accepted and its handler writes the raw response bytes, so a response can trickle
 * or a connection can be closed while idle.
 */
final class SocketTarget implements AutoCloseable {
  /** Writes the response to one request; returns whether to keep the connection for another. */
  interface Handler {
    boolean respond(String requestHead, OutputStream out) throws IOException, InterruptedException;
  }

  private final ServerSocket server;
  private final Handler handler;
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger closed = new AtomicInteger();
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private final List<Socket> open = new CopyOnWriteArrayList<>();
  private final List<Thread> handlers = new CopyOnWriteArrayList<>();
  private final Thread acceptor;

  SocketTarget(Handler handler) throws IOException {
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.handler = handler;
    this.acceptor = Thread.ofVirtual().start(this::accept);
  }

  /** A 200 response with a Content-Length, keep-alive. */
  static boolean ok(OutputStream out, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    out.write(
        ("HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\nContent-Length: "
                + bytes.length
                + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    out.write(bytes);
    out.flush();
    return true;
  }

  String url() {
    return "http://127.0.0.1:" + server.getLocalPort() + "/metrics";
  }

  int connections() {
    return connections.get();
  }

  /** Connections this side has closed. */
  int closed() {
    return closed.get();
  }

  /** The request line and headers of every request, in order. */
  List<String> requests() {
    return List.copyOf(requests);
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket socket = server.accept();
        connections.incrementAndGet();
        open.add(socket);
        handlers.add(Thread.ofVirtual().start(() -> serve(socket)));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void serve(Socket socket) {
    try (socket) {
      InputStream in = socket.getInputStream();
      OutputStream out = socket.getOutputStream();
      for (String head = readHead(in); head != null; head = readHead(in)) {
        requests.add(head);
        if (!handler.respond(head, out)) {
          return;
        }
      }
    } catch (IOException | InterruptedException e) {
      // the client went away, or the target closes
    } finally {
      closed.incrementAndGet();
    }
  }

  /** The request up to its blank line, or null at the end of the connection. */
  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    for (int b = in.read(); b >= 0; b = in.read()) {
      head.write(b);
      matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
      if (matched == 4) {
        return head.toString(StandardCharsets.US_ASCII);
      }
    }
    return null;
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket socket : open) {
      socket.close();
    }
    acceptor.interrupt();
    handlers.forEach(Thread::interrupt); // ends handlers that hang on purpose
  }
}
