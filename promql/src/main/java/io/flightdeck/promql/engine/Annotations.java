package io.flightdeck.promql.engine;

import io.flightdeck.promql.parser.PositionRange;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Warnings and infos gathered while a query runs. Like Prometheus, each text is kept once (the
 * first position wins) and rendered as {@code PromQL warning: <text> (<line>:<column>)}.
 * Thread-safe: {@link SeriesFanOut} workers share it.
 */
final class Annotations {
  private final Map<String, PositionRange> warnings = new LinkedHashMap<>();
  private final Map<String, PositionRange> infos = new LinkedHashMap<>();

  synchronized void warn(String text, PositionRange position) {
    warnings.putIfAbsent("PromQL warning: " + text, position);
  }

  synchronized void info(String text, PositionRange position) {
    infos.putIfAbsent("PromQL info: " + text, position);
  }

  synchronized List<String> warnings(String query) {
    return render(warnings, query);
  }

  synchronized List<String> infos(String query) {
    return render(infos, query);
  }

  private static List<String> render(Map<String, PositionRange> texts, String query) {
    byte[] bytes = query == null ? null : query.getBytes(StandardCharsets.UTF_8);
    List<String> out = new ArrayList<>(texts.size());
    texts.forEach(
        (text, position) ->
            out.add(
                bytes == null || position == null
                    ? text
                    : text + " (" + lineAndColumn(bytes, position.start()) + ")"));
    return out;
  }

  private static String lineAndColumn(byte[] query, int offset) {
    if (offset > query.length) {
      return "unknown position";
    }
    int line = 1;
    int lastLineBreak = -1;
    for (int i = 0; i < offset; i++) {
      if (query[i] == '\n') {
        line++;
        lastLineBreak = i;
      }
    }
    return line + ":" + (offset - lastLineBreak);
  }
}
