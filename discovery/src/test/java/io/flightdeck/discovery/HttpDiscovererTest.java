package io.flightdeck.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.flightdeck.config.HttpSdConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HttpDiscovererTest extends DiscovererContractTest {
  private HttpServer server;
  private volatile int status = 200;
  private volatile String contentType = "application/json";
  private volatile String body = "[]";

  @BeforeEach
  void startServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/sd",
        exchange -> {
          byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", contentType);
          exchange.sendResponseHeaders(status, bytes.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
          }
        });
    server.start();
  }

  @AfterEach
  void stopServer() {
    server.stop(0);
  }

  private Discoverer discoverer(Duration refresh) {
    URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/sd");
    return new HttpDiscoverer("test", new HttpSdConfig(url, refresh), HttpClient.newHttpClient());
  }

  @Override
  Discoverer create(List<Declared> groups) throws IOException {
    body = json(groups);
    return discoverer(Duration.ofMinutes(1));
  }

  private static String json(List<Declared> groups) throws IOException {
    return new ObjectMapper()
        .writeValueAsString(
            groups.stream()
                .map(g -> Map.of("targets", g.addresses(), "labels", g.labels()))
                .toList());
  }

  @Test
  void addsTheUrlAsMetaLabelAndSourcesByIndex() throws Exception {
    body = json(List.of(new Declared(List.of("a:1"), Map.of())));
    Discoverer discoverer = discoverer(Duration.ofMinutes(1));
    List<TargetGroup> groups = next(start(discoverer));

    String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/sd";
    assertThat(groups.get(0).labels().get("__meta_url")).isEqualTo(url);
    assertThat(groups.get(0).source()).isEqualTo(url + ":0");
  }

  @Test
  void followsChangesAndKeepsTheLastGoodGroupsOnErrors() throws Exception {
    body = json(List.of(new Declared(List.of("a:1"), Map.of())));
    Discoverer discoverer = discoverer(Duration.ofMillis(50));
    BlockingQueue<List<TargetGroup>> updates = start(discoverer);
    assertThat(next(updates).get(0).targets().get(0).get("__address__")).isEqualTo("a:1");

    status = 500;
    Await.until(() -> !discoverer.lastError().isEmpty());
    assertThat(discoverer.lastError()).contains("HTTP status 500");
    assertThat(updates).isEmpty();

    status = 200;
    contentType = "text/plain";
    Await.until(() -> discoverer.lastError().contains("unsupported content type"));
    assertThat(updates).isEmpty();

    contentType = "application/json";
    body = json(List.of(new Declared(List.of("b:1"), Map.of())));
    assertThat(next(updates).get(0).targets().get(0).get("__address__")).isEqualTo("b:1");
    assertThat(discoverer.lastError()).isEmpty();
  }
}
