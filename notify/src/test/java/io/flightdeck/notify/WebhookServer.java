package io.flightdeck.notify;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/** A receiving endpoint on 127.0.0.1 that records requests and answers with scripted statuses. */
final class WebhookServer implements AutoCloseable {
  record Request(
      String method, String path, String query, Map<String, List<String>> headers, String body) {
    String header(String name) {
      for (var e : headers.entrySet()) {
        if (e.getKey().equalsIgnoreCase(name)) {
          return e.getValue().getFirst();
        }
      }
      return null;
    }
  }

  private final HttpServer server;
  private final LinkedBlockingQueue<Request> requests = new LinkedBlockingQueue<>();
  private final ArrayDeque<Integer> statuses = new ArrayDeque<>();
  private volatile String responseBody = "{}";
  private volatile Runnable onRequest = () -> {};

  WebhookServer() throws IOException {
    this(null);
  }

  /** Serves HTTPS with {@code tls}, or plain HTTP when it is null. */
  WebhookServer(SSLContext tls) throws IOException {
    InetSocketAddress address = new InetSocketAddress("127.0.0.1", 0);
    if (tls == null) {
      server = HttpServer.create(address, 0);
    } else {
      HttpsServer https = HttpsServer.create(address, 0);
      https.setHttpsConfigurator(new HttpsConfigurator(tls));
      server = https;
    }
    server.createContext(
        "/",
        exchange -> {
          String body =
              new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          URI uri = exchange.getRequestURI();
          Request request =
              new Request(
                  exchange.getRequestMethod(),
                  uri.getPath(),
                  uri.getRawQuery(),
                  Map.copyOf(exchange.getRequestHeaders()),
                  body);
          requests.add(request);
          onRequest.run();
          int status;
          synchronized (statuses) {
            status = statuses.isEmpty() ? 200 : statuses.pollFirst();
          }
          byte[] answer = responseBody.getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(status, answer.length);
          exchange.getResponseBody().write(answer);
          exchange.close();
        });
    server.start();
  }

  String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  int port() {
    return server.getAddress().getPort();
  }

  /** The next requests are answered with these statuses, then 200 again. */
  void failNext(int... codes) {
    synchronized (statuses) {
      for (int code : codes) {
        statuses.addLast(code);
      }
    }
  }

  /** Runs {@code action} after each request is recorded, before it is answered. */
  void onRequest(Runnable action) {
    onRequest = action;
  }

  void respondWith(String body) {
    responseBody = body;
  }

  /** Requests received so far, removing them. */
  List<Request> drain() {
    List<Request> out = new ArrayList<>();
    requests.drainTo(out);
    return out;
  }

  /** Waits for the next request (only for servers fed by another process). */
  Request await(Duration timeout) throws InterruptedException {
    Request r = requests.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (r == null) {
      throw new AssertionError("no request within " + timeout);
    }
    return r;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
