package io.flightdeck.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * POSTs the stored requests to a remote-write endpoint over a few HTTP/1.1 connections, like
 * Prometheus's sharded queue: connection {@code k} sends the chunks {@code c} with {@code c %
 * connections == k}, slice after slice, so every series arrives in time order. Any non-2xx answer
 * stops the run with an exception.
 */
final class Sender {

  /** What a run sent and how long it took, from the first request to the last answer. */
  record Result(long samples, int requests, Duration wall) {
    double samplesPerSecond() {
      return samples / (wall.toNanos() / 1e9);
    }
  }

  private static final int MAX_LEAD_SLICES = 8;
  private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(2);

  private final URI url;
  private final int connections;
  private final HttpClient client;

  Sender(URI url, int connections) {
    this.url = url;
    this.connections = connections;
    // HTTP/1.1 as Prometheus uses it; the default would try an h2c upgrade first.
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
  }

  Result send(RequestFile file) throws IOException, InterruptedException {
    int senders = Math.min(connections, file.chunks());
    SliceGate gate = new SliceGate(senders, MAX_LEAD_SLICES);
    AtomicReference<Exception> failure = new AtomicReference<>();
    AtomicLong samples = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    long startNanos = System.nanoTime();
    for (int sender = 0; sender < senders; sender++) {
      int id = sender;
      Runnable work =
          () -> {
            try {
              sendShare(file, id, senders, gate, failure, samples);
            } catch (IOException | InterruptedException | RuntimeException e) {
              failure.compareAndSet(null, e);
              gate.abort();
            }
          };
      threads.add(Thread.ofPlatform().name("sender-" + id).start(work));
    }
    for (Thread thread : threads) {
      thread.join();
    }
    Duration wall = Duration.ofNanos(System.nanoTime() - startNanos);
    if (failure.get() != null) {
      throw new IOException("remote write to " + url + " failed", failure.get());
    }
    return new Result(samples.get(), file.slices() * file.chunks(), wall);
  }

  /** Sender {@code id}'s chunks, slice by slice, until done or another sender has failed. */
  private void sendShare(
      RequestFile file,
      int id,
      int senders,
      SliceGate gate,
      AtomicReference<Exception> failure,
      AtomicLong samples)
      throws IOException, InterruptedException {
    for (int slice = 0; slice < file.slices() && failure.get() == null; slice++) {
      gate.awaitTurn(slice);
      for (int chunk = id; chunk < file.chunks(); chunk += senders) {
        RequestFile.Request request = file.read(slice, chunk);
        post(request);
        samples.addAndGet(request.samples());
      }
      gate.advance(id, slice + 1);
    }
  }

  private void post(RequestFile.Request request) throws IOException, InterruptedException {
    HttpRequest post =
        HttpRequest.newBuilder(url)
            .timeout(REQUEST_TIMEOUT)
            .header("Content-Encoding", "snappy")
            .header("Content-Type", "application/x-protobuf")
            .header("X-Prometheus-Remote-Write-Version", "0.1.0")
            .header("User-Agent", "flightdeck-bench/0.1")
            .POST(HttpRequest.BodyPublishers.ofByteArray(request.body()))
            .build();
    HttpResponse<String> response = client.send(post, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() / 100 != 2) {
      String body = response.body().strip();
      throw new IOException(
          "HTTP %d for slice %d chunk %d: %s"
              .formatted(
                  response.statusCode(),
                  request.slice(),
                  request.chunk(),
                  body.substring(0, Math.min(500, body.length()))));
    }
  }
}
