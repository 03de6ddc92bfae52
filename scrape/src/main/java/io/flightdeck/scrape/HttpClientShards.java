package io.flightdeck.scrape;

import io.flightdeck.config.HttpClientConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.concurrent.Executor;

/**
 * The HTTP clients of one scrape pool, each target always on the same one. The JDK client finds an
 * idle connection by walking a list of all its idle connections, so with one client a job of a
 * thousand targets pays a thousand steps per scrape; spread over {@value #SHARDS} clients, each
 * walks a sixteenth. Each client has a selector thread, so clients are created on first use and a
 * small job has no more than it has targets. Thread-safe.
 */
final class HttpClientShards {
  static final int SHARDS = 16;

  private final HttpClientConfig http;
  private final Executor executor;
  private final HttpClient[] clients = new HttpClient[SHARDS];
  private boolean closed;

  /**
   * Builds the first client now, so that bad TLS settings fail here.
   *
   * @throws ScrapeException when the TLS settings cannot be loaded
   */
  HttpClientShards(HttpClientConfig http, Executor executor) throws ScrapeException {
    this.http = http;
    this.executor = executor;
    this.clients[0] = HttpClients.create(http, executor);
  }

  /** The client for a target's URL. */
  synchronized HttpClient forTarget(URI url) {
    int shard = Math.floorMod(url.hashCode(), SHARDS);
    if (clients[shard] == null) {
      if (closed) {
        return clients[0]; // shut down: its requests fail, as they should
      }
      try {
        clients[shard] = HttpClients.create(http, executor);
      } catch (ScrapeException e) {
        return clients[0]; // the same settings loaded a moment ago; keep scraping with those
      }
    }
    return clients[shard];
  }

  /** Aborts every exchange still hanging. */
  synchronized void shutdownNow() {
    closed = true;
    for (HttpClient client : clients) {
      if (client != null) {
        client.shutdownNow();
      }
    }
  }
}
