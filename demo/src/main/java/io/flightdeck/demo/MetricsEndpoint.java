package io.flightdeck.demo;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

/**
 * One simulated exporter: {@code GET /metrics} on 127.0.0.1 at an ephemeral port, answering the
 * text {@code body} gives, or 503 when it gives none (the process is gone), as a scrape of a dead
 * exporter would fail.
 */
final class MetricsEndpoint implements AutoCloseable {
  private static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;

  MetricsEndpoint(Supplier<Optional<String>> body, ExecutorService executor) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    server.setExecutor(executor);
    server.createContext(
        "/metrics",
        exchange -> {
          try (exchange) {
            Optional<String> text;
            try {
              text = body.get();
            } catch (RuntimeException e) {
              text = Optional.empty();
            }
            byte[] bytes =
                text.orElse("the simulated process has exited\n").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", TEXT_FORMAT);
            exchange.sendResponseHeaders(text.isPresent() ? 200 : 503, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(bytes);
            }
          }
        });
    server.start();
  }

  /** {@code 127.0.0.1:<port>}, for a scrape config. */
  String address() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
