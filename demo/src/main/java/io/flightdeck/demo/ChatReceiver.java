package io.flightdeck.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The demo's built-in team chat: a webhook receiver on 127.0.0.1 that takes Alertmanager's webhook
 * JSON, as a chat robot would, and logs one line per alert. The server delivers to it over real
 * HTTP like to any receiver, so each delivery and its result land in the notification log.
 */
final class ChatReceiver implements AutoCloseable {
  static final String PATH = "/chat";

  private static final Logger log = LoggerFactory.getLogger(ChatReceiver.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;

  ChatReceiver(ExecutorService executor) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    server.setExecutor(executor);
    server.createContext(
        PATH,
        exchange -> {
          try (exchange) {
            int status = 200;
            try {
              post(JSON.readTree(exchange.getRequestBody().readAllBytes()));
            } catch (IOException e) {
              status = 400; // not Alertmanager's JSON: the server would log the failure
            }
            exchange.sendResponseHeaders(status, -1);
          }
        });
    server.start();
  }

  private static void post(JsonNode notification) {
    for (JsonNode alert : notification.path("alerts")) {
      log.info(
          "demo chat: [{}] {} {}",
          alert.path("status").asText().toUpperCase(java.util.Locale.ROOT),
          alert.path("labels").path("alertname").asText(),
          alert.path("annotations").path("summary").asText());
    }
  }

  /** The webhook URL for the generated config. */
  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + PATH;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
