package io.flightdeck.remote;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.MetricType;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
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

  /**
   * The metric family a stored series belongs to: a histogram's {@code _bucket}, {@code _sum} and
   * {@code _count} series and a summary's {@code _sum} and {@code _count} belong to the family the
   * group's TYPE names; any other series to the family of its own name.
   */
  String familyOf(Labels series) {
    String name = series.metricName();
    for (String suffix : List.of("_bucket", "_sum", "_count")) {
      if (name.endsWith(suffix)) {
        String base = name.substring(0, name.length() - suffix.length());
        MetricMetadata family = metadata.get(base);
        MetricType type = family == null ? null : family.type();
        if (type == MetricType.HISTOGRAM
            || (type == MetricType.SUMMARY && !suffix.equals("_bucket"))) {
          return base;
        }
      }
    }
    return name;
  }

  PushGroup withFailureAt(long failureTimeMillis) {
    return new PushGroup(grouping, series, metadata, pushTimeMillis, failureTimeMillis);
  }
}
