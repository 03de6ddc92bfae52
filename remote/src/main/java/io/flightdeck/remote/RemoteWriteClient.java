package io.flightdeck.remote;

import io.flightdeck.config.Authorization;
import io.flightdeck.config.BasicAuth;
import io.flightdeck.config.HttpClientConfig;
import io.flightdeck.config.RemoteWriteConfig;
import io.flightdeck.config.TlsConfig;
import io.flightdeck.config.TlsContexts;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;

/**
 * POSTs compressed remote-write bodies to one endpoint through the JDK's HTTP client, with the
 * protocol's headers, the configured extra headers and authentication. Secrets in files are read
 * for every request, so a rotated token is picked up without a restart. Thread-safe.
 */
final class RemoteWriteClient {
  static final String USER_AGENT = "Flightdeck-remote-write/1.0";

  /**
   * What the endpoint answered; the body is only for log lines; {@code retryAfterMillis} is 0 when
   * absent.
   */
  record Answer(int status, String body, long retryAfterMillis) {}

  private final RemoteWriteConfig config;
  private final HttpClient http;

  RemoteWriteClient(RemoteWriteConfig config) throws IOException, GeneralSecurityException {
    this.config = config;
    HttpClient.Builder builder =
        config.httpClient().applyTo(HttpClient.newBuilder().connectTimeout(config.remoteTimeout()));
    TlsConfig tls = config.httpClient().tlsConfig();
    if (!tls.equals(TlsConfig.DEFAULT)) {
      builder.sslContext(TlsContexts.create(tls));
      if (!tls.serverName().isEmpty()) {
        SSLParameters parameters = new SSLParameters();
        parameters.setServerNames(List.of(new SNIHostName(tls.serverName())));
        builder.sslParameters(parameters);
      }
    }
    this.http = builder.build();
  }

  /**
   * Sends one body; {@code attempt} 0 is the first try, later ones carry {@code Retry-Attempt}.
   *
   * @throws IOException on network errors and timeouts, which are worth a retry
   */
  Answer post(byte[] snappyBody, int attempt) throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(config.url())
            .timeout(config.remoteTimeout())
            .POST(HttpRequest.BodyPublishers.ofByteArray(snappyBody));
    config.headers().forEach(request::header);
    request
        .header("Content-Encoding", "snappy")
        .header("Content-Type", "application/x-protobuf")
        .header("User-Agent", USER_AGENT)
        .header("X-Prometheus-Remote-Write-Version", "0.1.0");
    if (attempt > 0) {
      request.header("Retry-Attempt", Integer.toString(attempt));
    }
    String authorization = authorization(config.httpClient());
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    HttpResponse<String> response =
        http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    String body = response.body();
    return new Answer(
        response.statusCode(),
        body.length() > 512 ? body.substring(0, 512) : body,
        retryAfterMillis(response.headers().firstValue("Retry-After").orElse(null)));
  }

  private static String authorization(HttpClientConfig client) throws IOException {
    BasicAuth basic = client.basicAuth();
    if (basic != null) {
      String password =
          basic.passwordFile() == null
              ? basic.password()
              : Files.readString(basic.passwordFile(), StandardCharsets.UTF_8).strip();
      String pair = basic.username() + ":" + password;
      return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
    }
    Authorization auth = client.authorization();
    if (auth != null) {
      String credentials =
          auth.credentialsFile() == null
              ? auth.credentials()
              : Files.readString(auth.credentialsFile(), StandardCharsets.UTF_8).strip();
      return auth.type() + " " + credentials;
    }
    return null;
  }

  /** A Retry-After in milliseconds when it is given in seconds; else 0. */
  private static long retryAfterMillis(String header) {
    if (header == null) {
      return 0;
    }
    try {
      return Math.max(0, Long.parseLong(header.trim()) * 1000);
    } catch (NumberFormatException e) {
      return 0; // an HTTP date: the backoff alone decides
    }
  }
}
