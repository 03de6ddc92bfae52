package io.flightdeck.app;

import io.flightdeck.model.Matcher;
import io.flightdeck.promql.PromQL;
import io.flightdeck.promql.parser.ParseException;
import io.flightdeck.promql.parser.VectorSelector;
import java.util.List;

/**
 * Series selectors for {@code match[]} parameters and the tools' {@code --match} flag, parsed by
 * the PromQL parser so syntax and error messages are Prometheus's.
 */
final class SeriesSelector {
  private SeriesSelector() {}

  /** The matchers of a selector such as {@code up{job="node"}}, the metric name included. */
  static List<Matcher> parse(String text) {
    try {
      if (PromQL.parse(text) instanceof VectorSelector selector
          && selector.timestamp() == null
          && selector.atAnchor() == null
          && selector.originalOffset().isZero()) {
        return selector.matchers();
      }
    } catch (ParseException e) {
      throw new IllegalArgumentException("bad selector \"" + text + "\": " + e.getMessage(), e);
    }
    throw new IllegalArgumentException(
        "bad selector \"" + text + "\": expected a series selector such as up{job=\"node\"}");
  }
}
