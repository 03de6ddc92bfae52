package io.flightdeck.remote;

import io.flightdeck.exposition.ExpositionParseException;
import io.flightdeck.model.Clock;
import io.flightdeck.model.LabelNameSyntax;
import io.flightdeck.storage.Appendable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * VictoriaMetrics-compatible {@code POST /api/v1/import/prometheus}: a batch of text-format lines,
 * timestamps in milliseconds where given (receive time otherwise), and optional {@code
 * extra_label=name=value} query parameters that override body labels. 204 when stored; 400 with the
 * parser's message, line included, for a bad body, and then nothing is stored. Thread-safe.
 */
public final class TextImportReceiver {

  private final Appendable storage;
  private final Clock clock;

  public TextImportReceiver(Appendable storage, Clock clock) {
    this.storage = storage;
    this.clock = clock;
  }

  /**
   * @param extraLabels the values of the {@code extra_label} query parameters, each {@code
   *     name=value}
   */
  public IngestResponse handle(byte[] body, List<String> extraLabels) {
    Map<String, String> extra = new LinkedHashMap<>();
    for (String pair : extraLabels) {
      int equals = pair.indexOf('=');
      String name = equals < 0 ? "" : pair.substring(0, equals);
      if (!LabelNameSyntax.isLegacy(name)) {
        return new IngestResponse(
            400, "extra_label must be name=value with a valid label name, got \"" + pair + "\"");
      }
      extra.put(name, pair.substring(equals + 1));
    }
    long now = clock.millis();
    TextBatch batch;
    try {
      batch = TextBatch.parse(body, extra, now);
    } catch (ExpositionParseException e) {
      return new IngestResponse(400, "text format parsing error: " + e.getMessage());
    }
    return batch.store(storage, List.of(), now, 204);
  }
}
