package io.flightdeck.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.config.HttpClientConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HttpClientShardsTest {
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();

  @AfterEach
  void stop() {
    executor.shutdownNow();
  }

  @Test
  void aTargetAlwaysGetsTheSameClientAndTargetsSpreadOverTheShards() throws Exception {
    HttpClientShards shards = new HttpClientShards(HttpClientConfig.DEFAULT, executor);
    Set<HttpClient> clients = Collections.newSetFromMap(new IdentityHashMap<>());
    for (int port = 20000; port < 20200; port++) {
      URI url = URI.create("http://127.0.0.1:" + port + "/metrics");
      HttpClient client = shards.forTarget(url);
      assertThat(shards.forTarget(URI.create(url.toString()))).isSameAs(client);
      clients.add(client);
    }
    assertThat(clients).hasSize(HttpClientShards.SHARDS);
    shards.shutdownNow();
  }

  @Test
  void noNewClientOnceShutDown() throws Exception {
    HttpClientShards shards = new HttpClientShards(HttpClientConfig.DEFAULT, executor);
    shards.shutdownNow();
    Set<HttpClient> clients = Collections.newSetFromMap(new IdentityHashMap<>());
    for (int port = 20000; port < 20050; port++) {
      clients.add(shards.forTarget(URI.create("http://127.0.0.1:" + port + "/metrics")));
    }
    assertThat(clients).as("the client built up front, shut down").hasSize(1);
  }
}
