package io.flightdeck.bench;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.GZIPInputStream;

/**
 * Grafana's way of drawing the same panels: one {@code POST /api/v1/query_range} per query, at full
 * resolution (step 15 s over the whole range), as many at a time as a browser opens to one HTTP/1.1
 * host (6). Sent with {@code Accept-Encoding: gzip} as Grafana's Go client does, so bytes on the
 * wire are the compressed body when the server compresses. The time is from the first request to
 * the last answer read: Grafana's decoding and drawing come on top.
 */
final class PanelReplay {

  static final int BROWSER_CONNECTIONS_PER_HOST = 6;
  private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(2);

  /** One replay of every panel. */
  record Replay(
      double wallMs,
      double sumRequestMs,
      double slowestRequestMs,
      int requests,
      long wireBytes,
      long decodedBytes,
      long series,
      long points) {}

  private record Answer(double ms, long wireBytes, long decodedBytes, long series, long points) {}

  /** One query alone, each way: the median time of a few tries and the bytes of one answer. */
  record QueryCost(
      String expr,
      double cockpitMs,
      long cockpitWireBytes,
      double queryRangeMs,
      long queryRangeWireBytes,
      long queryRangeSeries,
      long queryRangePoints) {}

  private final URI queryRange;
  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();

  private final URI cockpitSeries;

  PanelReplay(String baseUrl) {
    this.queryRange = URI.create(baseUrl + "/api/v1/query_range");
    this.cockpitSeries = URI.create(baseUrl + "/api/v1/cockpit/series");
  }

  /**
   * Each of the page's queries alone, one request at a time: as the cockpit asks for it (a
   * cockpit/series body with that query only) and as Grafana would ({@code query_range}).
   */
  List<QueryCost> perQuery(RunPageLoads.Panels panels, long stepSeconds, int tries)
      throws IOException, InterruptedException {
    long start = (long) Math.floor(panels.startSeconds());
    long end = (long) Math.ceil(panels.endSeconds());
    List<QueryCost> costs = new ArrayList<>();
    for (int q = 0; q < panels.exprs().size(); q++) {
      String expr = panels.exprs().get(q);
      List<Answer> ours = new ArrayList<>();
      List<Answer> theirs = new ArrayList<>();
      for (int i = 0; i < tries; i++) {
        ours.add(send(post(cockpitSeries, "application/json", panels.singleBodies().get(q)), expr));
        theirs.add(query(expr, start, end, stepSeconds));
      }
      costs.add(
          new QueryCost(
              expr,
              CockpitBench.median(ours, Answer::ms),
              ours.get(0).wireBytes(),
              CockpitBench.median(theirs, Answer::ms),
              theirs.get(0).wireBytes(),
              theirs.get(0).series(),
              theirs.get(0).points()));
    }
    return costs;
  }

  Replay replay(RunPageLoads.Panels panels, long stepSeconds) throws IOException {
    long start = (long) Math.floor(panels.startSeconds());
    long end = (long) Math.ceil(panels.endSeconds());
    List<Future<Answer>> futures = new ArrayList<>();
    long t0 = System.nanoTime();
    try (ExecutorService pool = Executors.newFixedThreadPool(BROWSER_CONNECTIONS_PER_HOST)) {
      for (String expr : panels.exprs()) {
        futures.add(pool.submit(() -> query(expr, start, end, stepSeconds)));
      }
      List<Answer> answers = new ArrayList<>();
      for (Future<Answer> f : futures) {
        answers.add(f.get());
      }
      double wallMs = (System.nanoTime() - t0) / 1e6;
      return new Replay(
          wallMs,
          answers.stream().mapToDouble(Answer::ms).sum(),
          answers.stream().mapToDouble(Answer::ms).max().orElse(0),
          answers.size(),
          answers.stream().mapToLong(Answer::wireBytes).sum(),
          answers.stream().mapToLong(Answer::decodedBytes).sum(),
          answers.stream().mapToLong(Answer::series).sum(),
          answers.stream().mapToLong(Answer::points).sum());
    } catch (ExecutionException e) {
      throw new IOException("a panel query failed: " + e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private Answer query(String expr, long start, long end, long step)
      throws IOException, InterruptedException {
    String form =
        "query="
            + URLEncoder.encode(expr, StandardCharsets.UTF_8)
            + String.format(Locale.ROOT, "&start=%d&end=%d&step=%d", start, end, step);
    return send(post(queryRange, "application/x-www-form-urlencoded", form), expr);
  }

  private static HttpRequest post(URI uri, String contentType, String body) {
    return HttpRequest.newBuilder(uri)
        .timeout(REQUEST_TIMEOUT)
        .header("Content-Type", contentType)
        .header("Accept-Encoding", "gzip")
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
  }

  private Answer send(HttpRequest request, String expr) throws IOException, InterruptedException {
    long t0 = System.nanoTime();
    HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
    double ms = (System.nanoTime() - t0) / 1e6;
    byte[] wire = response.body();
    boolean gzip =
        response.headers().firstValue("Content-Encoding").orElse("").equalsIgnoreCase("gzip");
    byte[] body = gzip ? new GZIPInputStream(new ByteArrayInputStream(wire)).readAllBytes() : wire;
    String text = new String(body, StandardCharsets.UTF_8);
    if (response.statusCode() != 200 || !text.startsWith("{\"status\":\"success\"")) {
      throw new IOException(
          "HTTP "
              + response.statusCode()
              + " for "
              + expr
              + ": "
              + text.substring(0, Math.min(300, text.length())));
    }
    return new Answer(ms, wire.length, body.length, count(text, "\"values\":"), points(text));
  }

  /** Points in a matrix answer: each is a {@code [time,"value"]} pair, ending in {@code "]}. */
  private static long points(String text) {
    return count(text, "\"]");
  }

  private static long count(String text, String needle) {
    long n = 0;
    for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length())) {
      n++;
    }
    return n;
  }
}
