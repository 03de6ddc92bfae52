package io.flightdeck.scrape;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpServer;
import io.flightdeck.testkit.SharedFixtures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;

/**
 * A scrape target on 127.0.0.1: each path serves a settable response; it records the requests it
 * got. A path can be made to hang until {@link #close()}.
 */
final class TargetServer implements AutoCloseable {
  record Response(int status, String contentType, byte[] body, boolean gzip) {}

  record Request(String path, String query, Headers headers) {}

  static final String TEXT = "text/plain; version=0.0.4; charset=utf-8";
  static final String OPENMETRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";

  private final HttpServer server;
  private final Map<String, Response> responses = new ConcurrentHashMap<>();
  private final Map<String, Boolean> hanging = new ConcurrentHashMap<>();
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final CountDownLatch release = new CountDownLatch(1);

  TargetServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext(
        "/",
        exchange -> {
          String path = exchange.getRequestURI().getPath();
          requests.add(
              new Request(
                  path, exchange.getRequestURI().getRawQuery(), exchange.getRequestHeaders()));
          if (hanging.containsKey(path)) {
            try {
              release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          Response response =
              responses.getOrDefault(path, new Response(404, "text/plain", new byte[0], false));
          byte[] body = response.body();
          if (response.gzip()) {
            exchange.getResponseHeaders().set("Content-Encoding", "gzip");
            body = gzip(body);
          }
          if (response.contentType() != null) {
            exchange.getResponseHeaders().set("Content-Type", response.contentType());
          }
          exchange.sendResponseHeaders(response.status(), body.length == 0 ? -1 : body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          } catch (IOException e) {
            // the scraper gave up
          }
        });
    server.start();
  }

  void serve(String path, String contentType, String body) {
    responses.put(
        path, new Response(200, contentType, body.getBytes(StandardCharsets.UTF_8), false));
  }

  void serve(String path, Response response) {
    responses.put(path, response);
  }

  /** Serves a file of {@code ../shared/fixtures/exposition}. */
  void serveFixture(String path, String contentType, String fixture) throws IOException {
    responses.put(
        path,
        new Response(
            200,
            contentType,
            Files.readAllBytes(SharedFixtures.fixture("exposition/" + fixture)),
            false));
  }

  void hang(String path) {
    hanging.put(path, true);
  }

  String address() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  List<Request> requests() {
    return List.copyOf(requests);
  }

  private static byte[] gzip(byte[] body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
      zip.write(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  @Override
  public void close() {
    release.countDown();
    server.stop(0);
  }
}
