package io.flightdeck.remote;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;

/**
 * A remote-write endpoint on 127.0.0.1 for sender tests: answers the scripted statuses first, then
 * hands every request to a real {@link RemoteWriteReceiver} over {@link InMemoryAppendable}, and
 * records each request's headers and answer.
 */
final class ScriptedEndpoint implements AutoCloseable {
  /** One request as it arrived: its headers (lower-case names) and the status it got. */
  record Request(Map<String, String> headers, int status, long samples) {}

  final InMemoryAppendable storage = new InMemoryAppendable();
  private final RemoteWriteReceiver receiver = new RemoteWriteReceiver(storage, 16 << 20);
  private final HttpServer server;
  private final Deque<Integer> script = new ArrayDeque<>();
  private final List<Request> requests = new ArrayList<>();
  private int fallbackStatus;

  ScriptedEndpoint() throws IOException {
    this(null);
  }

  /** Over HTTPS with {@code tls} when it is not null. */
  ScriptedEndpoint(SSLContext tls) throws IOException {
    InetSocketAddress address = new InetSocketAddress("127.0.0.1", 0);
    if (tls == null) {
      server = HttpServer.create(address, 0);
    } else {
      HttpsServer https = HttpsServer.create(address, 0);
      https.setHttpsConfigurator(new HttpsConfigurator(tls));
      server = https;
    }
    server.createContext("/api/v1/write", this::handle);
    server.start();
  }

  URI uri() {
    String scheme = server instanceof HttpsServer ? "https" : "http";
    return URI.create(scheme + "://127.0.0.1:" + server.getAddress().getPort() + "/api/v1/write");
  }

  /** Answers the next requests with these statuses, one each, before storing again. */
  synchronized ScriptedEndpoint answer(Integer... statuses) {
    script.addAll(List.of(statuses));
    return this;
  }

  /** Answers every request past the script with {@code status}; 0 means store it. */
  synchronized void answerAlways(int status) {
    fallbackStatus = status;
  }

  synchronized List<Request> requests() {
    return List.copyOf(requests);
  }

  private void handle(HttpExchange exchange) throws IOException {
    byte[] body = exchange.getRequestBody().readAllBytes();
    Map<String, String> headers = new java.util.TreeMap<>();
    exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(), v.get(0)));
    int status;
    long samples = 0;
    String answer = "";
    synchronized (this) {
      Integer scripted = script.pollFirst();
      status = scripted != null ? scripted : fallbackStatus;
    }
    if (status == 0) {
      RemoteWriteReceiver.Response response =
          receiver.handle(headers.get("content-type"), headers.get("content-encoding"), body);
      status = response.status();
      samples = response.samplesWritten();
      answer = response.body();
    } else {
      answer = "scripted " + status;
    }
    synchronized (this) {
      requests.add(new Request(headers, status, samples));
    }
    byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      exchange.getResponseBody().write(bytes);
    }
    exchange.close();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
