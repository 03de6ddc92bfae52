package io.flightdeck.scrape;

import io.flightdeck.model.Labels;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One target after relabelling. Immutable.
 *
 * @param all every label after relabelling, the {@code __}-prefixed ones included: the identity
 * @param labels the labels stored with every scraped sample (no {@code __} prefix)
 */
record ScrapeTarget(Labels all, Labels labels, URI url, Duration interval, Duration timeout) {
  static final String ADDRESS = "__address__";
  static final String SCHEME = "__scheme__";
  static final String METRICS_PATH = "__metrics_path__";
  static final String PARAM_PREFIX = "__param_";
  static final String SCRAPE_INTERVAL = "__scrape_interval__";
  static final String SCRAPE_TIMEOUT = "__scrape_timeout__";

  /**
   * The URL from scheme, address, metrics path and query: the configured params, each {@code
   * __param_<name>} label replacing its first value, sorted by name as Go's encoder does.
   */
  static URI url(Labels all, Map<String, List<String>> params) {
    Map<String, List<String>> query = new TreeMap<>();
    params.forEach((name, values) -> query.put(name, new ArrayList<>(values)));
    all.forEach(
        (name, value) -> {
          if (name.startsWith(PARAM_PREFIX)) {
            List<String> values =
                query.computeIfAbsent(
                    name.substring(PARAM_PREFIX.length()), k -> new ArrayList<>());
            if (values.isEmpty()) {
              values.add(value);
            } else {
              values.set(0, value);
            }
          }
        });
    StringBuilder text = new StringBuilder(all.get(SCHEME)).append("://").append(all.get(ADDRESS));
    text.append(all.get(METRICS_PATH));
    char separator = '?';
    for (Map.Entry<String, List<String>> entry : query.entrySet()) {
      for (String value : entry.getValue()) {
        text.append(separator).append(encode(entry.getKey())).append('=').append(encode(value));
        separator = '&';
      }
    }
    return URI.create(text.toString());
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
