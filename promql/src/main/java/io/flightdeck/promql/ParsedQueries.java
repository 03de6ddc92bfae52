package io.flightdeck.promql;

import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.ParseOptions;
import io.flightdeck.promql.parser.PromQLParser;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The most recently parsed queries and their trees. Dashboards and rules send the same few query
 * texts over and over with other times, and parsing one costs as much as answering a small query;
 * trees are immutable, so one can serve every request with that text. Failed parses are not kept.
 */
final class ParsedQueries {
  /** Longer texts are parsed every time rather than held. */
  static final int MAX_QUERY_LENGTH = 4096;

  private final int capacity;
  private final Map<String, Expr> recent;

  ParsedQueries(int capacity) {
    this.capacity = capacity;
    this.recent = new LinkedHashMap<>(16, 0.75f, true);
  }

  Expr parse(String query, ParseOptions options) {
    if (query.length() > MAX_QUERY_LENGTH) {
      return PromQLParser.parse(query, options);
    }
    synchronized (recent) {
      Expr known = recent.get(query);
      if (known != null) {
        return known;
      }
    }
    Expr parsed = PromQLParser.parse(query, options);
    synchronized (recent) {
      recent.put(query, parsed);
      if (recent.size() > capacity) {
        recent.remove(recent.keySet().iterator().next());
      }
    }
    return parsed;
  }

  int size() {
    synchronized (recent) {
      return recent.size();
    }
  }
}
