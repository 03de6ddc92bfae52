package io.flightdeck.discovery;

import io.flightdeck.config.HttpSdConfig;
import io.flightdeck.model.Labels;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * {@code http_sd_configs}: a JSON list of groups fetched with GET on every refresh interval. As in
 * Prometheus, the answer must be 200 with {@code Content-Type: application/json}.
 */
final class HttpDiscoverer extends PollingDiscoverer {
  static final String META_URL = "__meta_url";
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final HttpSdConfig config;
  private final HttpClient client;

  HttpDiscoverer(String name, HttpSdConfig config, HttpClient client) {
    super(name, config.refreshInterval(), Duration.ZERO);
    this.config = config;
    this.client = client;
  }

  @Override
  List<TargetGroup> read() throws IOException, InterruptedException, DiscoveryException {
    String url = config.url().toString();
    HttpRequest request =
        HttpRequest.newBuilder(config.url())
            .timeout(TIMEOUT)
            .header("Accept", "application/json")
            .header("X-Prometheus-Refresh-Interval-Seconds", refreshSeconds())
            .GET()
            .build();
    HttpResponse<String> response =
        client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    if (response.statusCode() != 200) {
      throw new DiscoveryException(
          "server returned HTTP status " + response.statusCode() + " from " + url);
    }
    String type = response.headers().firstValue("Content-Type").orElse("");
    if (!type.toLowerCase(Locale.ROOT).trim().startsWith("application/json")) {
      throw new DiscoveryException(
          "unsupported content type \"" + type + "\" from " + url + ", want application/json");
    }
    return TargetGroupDecoder.json(response.body(), url, Labels.of(META_URL, url));
  }

  private String refreshSeconds() {
    return Long.toString(config.refreshInterval().toSeconds());
  }
}
