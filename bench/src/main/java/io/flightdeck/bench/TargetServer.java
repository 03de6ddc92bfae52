package io.flightdeck.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * Serves pre-rendered HTTP/1.1 responses on many ports of 127.0.0.1 from one thread: a request on
 * port {@code firstPort + i} gets response {@code i} of the latest {@link #publish published} set.
 * Keep-alive connections, as Prometheus and Flightdeck reuse theirs; the request is only read up to
 * its blank line (scrapes have no body). {@code GET /metrics} gets the body, any other path a 404.
 */
final class TargetServer implements Runnable {
  private static final byte[] NOT_FOUND =
      "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] METRICS_REQUEST = "GET /metrics".getBytes(StandardCharsets.US_ASCII);
  private static final int MAX_REQUEST_BYTES = 16384;

  private final Selector selector;
  private volatile ByteBuffer[] responses;

  /** One client connection: bytes of the request so far and the response being written. */
  private static final class Connection {
    final int target;
    final ByteBuffer request = ByteBuffer.allocate(MAX_REQUEST_BYTES);
    ByteBuffer response;

    Connection(int target) {
      this.target = target;
    }
  }

  TargetServer(int firstPort, int targets) throws IOException {
    selector = Selector.open();
    for (int i = 0; i < targets; i++) {
      ServerSocketChannel server = ServerSocketChannel.open();
      try {
        server.bind(new InetSocketAddress("127.0.0.1", firstPort + i), 512);
      } catch (IOException e) {
        throw new IOException(
            "cannot listen on 127.0.0.1:" + (firstPort + i) + ": " + e.getMessage(), e);
      }
      server.configureBlocking(false);
      server.register(selector, SelectionKey.OP_ACCEPT, i);
    }
  }

  /** Makes {@code bodies[i]} the answer of port {@code firstPort + i} from now on. */
  void publish(byte[][] bodies) {
    ByteBuffer[] next = new ByteBuffer[bodies.length];
    for (int i = 0; i < bodies.length; i++) {
      byte[] head =
          ("HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
                  + "Content-Length: "
                  + bodies[i].length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII);
      ByteBuffer whole = ByteBuffer.allocate(head.length + bodies[i].length);
      whole.put(head).put(bodies[i]).flip();
      next[i] = whole.asReadOnlyBuffer();
    }
    responses = next;
  }

  @Override
  public void run() {
    try {
      while (!Thread.currentThread().isInterrupted()) {
        selector.select();
        for (var it = selector.selectedKeys().iterator(); it.hasNext(); ) {
          SelectionKey key = it.next();
          it.remove();
          try {
            handle(key);
          } catch (IOException | java.nio.channels.CancelledKeyException e) {
            close(key);
          }
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private void handle(SelectionKey key) throws IOException {
    if (key.isAcceptable()) {
      SocketChannel client = ((ServerSocketChannel) key.channel()).accept();
      if (client != null) {
        client.configureBlocking(false);
        client.setOption(StandardSocketOptions.TCP_NODELAY, true);
        client.register(selector, SelectionKey.OP_READ, new Connection((Integer) key.attachment()));
      }
      return;
    }
    Connection c = (Connection) key.attachment();
    SocketChannel channel = (SocketChannel) key.channel();
    if (key.isReadable()) {
      if (channel.read(c.request) < 0) {
        close(key);
        return;
      }
      if (!c.request.hasRemaining()) {
        close(key); // a request head this long is no scrape
        return;
      }
    }
    if (c.response == null) {
      int end = headEnd(c.request);
      if (end < 0) {
        return;
      }
      c.response =
          startsWith(c.request, METRICS_REQUEST)
              ? responses[c.target].duplicate()
              : ByteBuffer.wrap(NOT_FOUND);
      // Drop the answered head; a pipelined next request stays.
      c.request.flip().position(end);
      c.request.compact();
    }
    channel.write(c.response);
    if (c.response.hasRemaining()) {
      key.interestOps(SelectionKey.OP_WRITE);
    } else {
      c.response = null;
      key.interestOps(SelectionKey.OP_READ);
    }
  }

  /** The index after the request head's blank line, or -1 while it is incomplete. */
  private static int headEnd(ByteBuffer request) {
    int n = request.position();
    for (int i = 3; i < n; i++) {
      if (request.get(i) == '\n' && request.get(i - 1) == '\r' && request.get(i - 2) == '\n') {
        return i + 1;
      }
    }
    return -1;
  }

  private static boolean startsWith(ByteBuffer request, byte[] prefix) {
    if (request.position() < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (request.get(i) != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private static void close(SelectionKey key) {
    key.cancel();
    try {
      key.channel().close();
    } catch (IOException e) {
      // closing a broken connection: nothing left to do
    }
  }
}
