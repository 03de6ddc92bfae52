package io.flightdeck.remote;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What Pushgateway keeps for one grouping key: the last value of each pushed series, the families'
 * HELP and TYPE, and when changing the group last succeeded and failed. Immutable.
 *
 * @param grouping the grouping labels from the path, {@code job} among them
 * @param series the last value of each series, its labels including the grouping labels
 * @param metadata HELP, TYPE and UNIT by metric family name
 * @param pushTimeMillis when a push to the group last succeeded, {@link #NEVER} if none did
 * @param pushFailureTimeMillis when a push to the group last failed, {@link #NEVER} if none did
 */
record PushGroup(
    Labels grouping,
    Map<Labels, Double> series,
    Map<String, MetricMetadata> metadata,
    long pushTimeMillis,
    long pushFailureTimeMillis) {

  /** A time that never happened; Pushgateway shows it as 0. */
  static final long NEVER = 0;

  PushGroup {
    // Copies that keep the push order, so that samples are written in a stable order.
    series = Collections.unmodifiableMap(new LinkedHashMap<>(series));
    metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
  }

  /** A group that so far only saw failed pushes. */
  static PushGroup failedOnly(Labels grouping, long failureTimeMillis) {
    return new PushGroup(grouping, Map.of(), Map.of(), NEVER, failureTimeMillis);
  }

  PushGroup withFailureAt(long failureTimeMillis) {
    return new PushGroup(grouping, series, metadata, pushTimeMillis, failureTimeMillis);
  }
}
