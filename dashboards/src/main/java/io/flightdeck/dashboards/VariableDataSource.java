package io.flightdeck.dashboards;

import java.util.List;

/**
 * What resolving query variables needs from the server's data: the answers of Prometheus's label,
 * series and query endpoints. Times are epoch ms; {@code match} is a series selector or "" for all.
 */
public interface VariableDataSource {
  List<String> labelNames(String match, long fromMs, long toMs);

  List<String> labelValues(String label, String match, long fromMs, long toMs);

  /**
   * Each sample of an instant query at {@code atMs}, written {@code metric{a="b"} 1 1700000000000}
   * as Grafana lists them.
   */
  List<String> queryResult(String expr, long atMs);

  /** Each series matching {@code match}, written {@code metric{a="b"}}. */
  List<String> series(String match, long fromMs, long toMs);
}
