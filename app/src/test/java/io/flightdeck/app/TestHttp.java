package io.flightdeck.app;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A plain HTTP/1.1 client for talking to child processes on 127.0.0.1. */
final class TestHttp {
  /** Generous: a 2-core CI machine running several JVMs can stall for seconds. */
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1) // no h2c upgrade attempts against Jetty
          .connectTimeout(Duration.ofSeconds(10))
          .build();

  private TestHttp() {}

  static HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
    return CLIENT.send(
        HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** POSTs {@code body}; {@code headers} are name, value pairs. */
  static HttpResponse<String> post(URI uri, byte[] body, String... headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .timeout(REQUEST_TIMEOUT)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (headers.length > 0) {
      request.headers(headers);
    }
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** POSTs an encoded WriteRequest with the headers remote write 1.0 requires. */
  static HttpResponse<String> remoteWrite(URI uri, byte[] body)
      throws IOException, InterruptedException {
    return post(
        uri,
        body,
        "Content-Type",
        "application/x-protobuf",
        "Content-Encoding",
        "snappy",
        "X-Prometheus-Remote-Write-Version",
        "0.1.0");
  }
}
