package io.flightdeck.notify;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A node of the routing tree with its inherited settings already filled in.
 *
 * @param key identifies the node in group keys, as Alertmanager's: {@code {}} for the root, then
 *     the matchers of each level
 * @param groupByAll {@code group_by: ['...']}: every label groups
 */
record Route(
    String key,
    String receiver,
    boolean groupByAll,
    List<String> groupBy,
    Duration groupWait,
    Duration groupInterval,
    Duration repeatInterval,
    List<Matcher> matchers,
    boolean continueMatching,
    List<Route> routes) {
  Route {
    groupBy = List.copyOf(groupBy);
    matchers = List.copyOf(matchers);
    routes = List.copyOf(routes);
  }

  /**
   * The deepest matching nodes, depth first: a node whose children do not match takes the alert
   * itself; siblings are tried after a match only when the matching one has {@code continue}.
   */
  List<Route> match(Labels labels) {
    if (!AlertMatchers.matchAll(matchers, labels)) {
      return List.of();
    }
    List<Route> matched = new ArrayList<>();
    for (Route child : routes) {
      List<Route> found = child.match(labels);
      matched.addAll(found);
      if (!found.isEmpty() && !child.continueMatching) {
        break;
      }
    }
    return matched.isEmpty() ? List.of(this) : matched;
  }

  /** The labels an alert is grouped by on this node. */
  Labels groupLabels(Labels alertLabels) {
    if (groupByAll) {
      return alertLabels;
    }
    Labels.Builder b = Labels.builder();
    for (String name : groupBy) {
      String value = alertLabels.get(name);
      if (!value.isEmpty()) {
        b.set(name, value);
      }
    }
    return b.build();
  }
}
