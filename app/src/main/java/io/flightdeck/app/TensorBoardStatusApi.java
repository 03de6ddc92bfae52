package io.flightdeck.app;

import com.fasterxml.jackson.core.JsonGenerator;
import io.flightdeck.api.ApiExchange;
import io.flightdeck.api.ApiReplies;
import io.flightdeck.api.ApiRoute;
import io.flightdeck.tensorboard.EventFileProgress;
import io.flightdeck.tensorboard.LogdirWatcher;
import io.flightdeck.tensorboard.LogdirWatcherStats;
import java.io.IOException;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/status/tensorboard}: each watched logdir with its counters and its import
 * progress, bytes read of bytes found, with the files (those being read, failing or unfinished
 * first, at most {@link #MAX_FILES} per logdir).
 */
final class TensorBoardStatusApi {
  static final int MAX_FILES = 200;

  private final TensorBoardWatchers watchers;

  TensorBoardStatusApi(TensorBoardWatchers watchers) {
    this.watchers = watchers;
  }

  List<ApiRoute> routes() {
    return List.of(new ApiRoute("GET", "/api/v1/status/tensorboard", this::status));
  }

  private void status(ApiExchange exchange) {
    ApiReplies.success(
        exchange,
        out -> {
          out.writeStartArray();
          for (Map.Entry<String, LogdirWatcher> e : watchers.watchers().entrySet()) {
            logdir(out, e.getKey(), e.getValue());
          }
          out.writeEndArray();
        });
  }

  private static void logdir(JsonGenerator out, String logdir, LogdirWatcher watcher)
      throws IOException {
    LogdirWatcherStats stats = watcher.stats();
    List<EventFileProgress> files = watcher.progress();
    long read = 0;
    long total = 0;
    for (EventFileProgress f : files) {
      read += f.bytesRead();
      total += f.bytesTotal();
    }
    out.writeStartObject();
    out.writeStringField("logdir", logdir);
    out.writeNumberField("runs", stats.runs());
    out.writeNumberField("files", files.size());
    out.writeNumberField("records", stats.records());
    out.writeNumberField("points", stats.points());
    out.writeNumberField("skipped", stats.skipped());
    out.writeNumberField("errors", stats.errors());
    if (stats.lastPollMillis() > 0) {
      out.writeNumberField("lastPoll", stats.lastPollMillis() / 1000.0);
    } else {
      out.writeNullField("lastPoll");
    }
    out.writeNumberField("bytesRead", read);
    out.writeNumberField("bytesTotal", total);
    out.writeArrayFieldStart("eventFiles");
    // A stable sort: within each kind, run and file order stays.
    List<EventFileProgress> shown =
        files.stream()
            .sorted(Comparator.comparing((EventFileProgress f) -> !needsLook(f)))
            .limit(MAX_FILES)
            .toList();
    for (EventFileProgress f : shown) {
      file(out, f);
    }
    out.writeEndArray();
    out.writeEndObject();
  }

  /** Being read, failing or not read to its end: what a person watching an import looks for. */
  private static boolean needsLook(EventFileProgress f) {
    return f.reading() || f.error() != null || f.bytesRead() < f.bytesTotal();
  }

  private static void file(JsonGenerator out, EventFileProgress f) throws IOException {
    out.writeStartObject();
    out.writeStringField("run", f.run());
    out.writeStringField("file", f.file());
    out.writeNumberField("bytesRead", f.bytesRead());
    out.writeNumberField("bytesTotal", f.bytesTotal());
    out.writeBooleanField("reading", f.reading());
    out.writeStringField("error", f.error());
    out.writeEndObject();
  }
}
