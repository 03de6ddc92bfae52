package io.flightdeck.notify;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/** Posts JSON bodies and classifies failures for retrying. Thread-safe. */
final class HttpPoster {
  private static final int MAX_ERROR_BODY = 200;

  private final HttpClient client;
  private final Duration timeout;

  HttpPoster(HttpClient client, Duration timeout) {
    this.client = client;
    this.timeout = timeout;
  }

  /** Returns the response body of a 2xx answer. */
  String postJson(URI uri, String json, Map<String, String> headers) throws DeliveryException {
    return send("POST", uri, json, headers);
  }

  /**
   * Sends one request with an optional JSON body and returns the response body of a 2xx answer;
   * anything else is a {@link DeliveryException} naming the method, the URL and the answer.
   */
  String send(String method, URI uri, String json, Map<String, String> headers)
      throws DeliveryException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .timeout(timeout)
            .header("User-Agent", "Flightdeck")
            .method(
                method,
                json == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
    if (json != null) {
      request.header("Content-Type", "application/json");
    }
    headers.forEach(request::header);
    HttpResponse<String> response;
    try {
      response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new DeliveryException(method + " " + redact(uri) + ": " + e, true, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DeliveryException(method + " " + redact(uri) + ": interrupted", false, e);
    }
    int status = response.statusCode();
    if (status / 100 == 2) {
      return response.body();
    }
    String body = response.body();
    if (body.length() > MAX_ERROR_BODY) {
      body = body.substring(0, MAX_ERROR_BODY) + "...";
    }
    throw new DeliveryException(
        method + " " + redact(uri) + ": status " + status + ": " + body.strip(),
        status / 100 == 5 || status == 429,
        status);
  }

  /** Robot URLs carry their access token in the query; keep it out of logs. */
  static String redact(URI uri) {
    return uri.getQuery() == null ? uri.toString() : uri.toString().replace(uri.getRawQuery(), "…");
  }
}
