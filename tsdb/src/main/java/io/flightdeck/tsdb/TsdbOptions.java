package io.flightdeck.tsdb;

import io.flightdeck.model.Clock;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Settings of the embedded database. {@link #defaults(Path)} gives Prometheus's defaults where
 * there is one; {@code with*} methods return changed copies.
 *
 * @param retention data older than this (relative to the newest sample) is deleted; 0 = forever
 * @param retentionBytes blocks are deleted, oldest first, while the store is larger; 0 = no limit
 * @param blockRange span of the blocks cut from the head (2 h) and the first compaction level
 * @param outOfOrderWindow how far behind a series' newest sample a sample is still accepted
 * @param futureTolerance how far ahead of the clock a sample may be stamped
 * @param maxSeries active series cap over all metrics; 0 = none
 * @param maxSeriesPerMetric active series cap per metric name; 0 = none
 */
public record TsdbOptions(
    Path path,
    Duration retention,
    long retentionBytes,
    Duration blockRange,
    Duration outOfOrderWindow,
    Duration futureTolerance,
    int maxLabelNameLength,
    int maxLabelValueLength,
    int maxLabelsPerSeries,
    int maxSeries,
    int maxSeriesPerMetric,
    long walSegmentBytes,
    Duration compactionInterval,
    Clock clock) {

  public static TsdbOptions defaults(Path path) {
    return new TsdbOptions(
        path,
        Duration.ofDays(15),
        0,
        Duration.ofHours(2),
        Duration.ZERO,
        Duration.ofMinutes(10),
        1024,
        4096,
        64,
        2_000_000,
        200_000,
        128L << 20,
        Duration.ofMinutes(1),
        Clock.system());
  }

  public TsdbOptions withPath(Path value) {
    return change(b -> b.path = value);
  }

  public TsdbOptions withRetention(Duration value) {
    return change(b -> b.retention = value);
  }

  public TsdbOptions withRetentionBytes(long value) {
    return change(b -> b.retentionBytes = value);
  }

  public TsdbOptions withBlockRange(Duration value) {
    return change(b -> b.blockRange = value);
  }

  public TsdbOptions withOutOfOrderWindow(Duration value) {
    return change(b -> b.outOfOrderWindow = value);
  }

  public TsdbOptions withLabelLimits(int nameLength, int valueLength, int labelsPerSeries) {
    return change(
        b -> {
          b.maxLabelNameLength = nameLength;
          b.maxLabelValueLength = valueLength;
          b.maxLabelsPerSeries = labelsPerSeries;
        });
  }

  public TsdbOptions withSeriesLimits(int total, int perMetric) {
    return change(
        b -> {
          b.maxSeries = total;
          b.maxSeriesPerMetric = perMetric;
        });
  }

  public TsdbOptions withCompactionInterval(Duration value) {
    return change(b -> b.compactionInterval = value);
  }

  public TsdbOptions withClock(Clock value) {
    return change(b -> b.clock = value);
  }

  private TsdbOptions change(java.util.function.Consumer<Fields> edit) {
    Fields f = new Fields(this);
    edit.accept(f);
    return f.build();
  }

  /** The fields as mutable variables, for the {@code with*} copies. */
  private static final class Fields {
    Path path;
    Duration retention;
    long retentionBytes;
    Duration blockRange;
    Duration outOfOrderWindow;
    Duration futureTolerance;
    int maxLabelNameLength;
    int maxLabelValueLength;
    int maxLabelsPerSeries;
    int maxSeries;
    int maxSeriesPerMetric;
    long walSegmentBytes;
    Duration compactionInterval;
    Clock clock;

    Fields(TsdbOptions o) {
      path = o.path;
      retention = o.retention;
      retentionBytes = o.retentionBytes;
      blockRange = o.blockRange;
      outOfOrderWindow = o.outOfOrderWindow;
      futureTolerance = o.futureTolerance;
      maxLabelNameLength = o.maxLabelNameLength;
      maxLabelValueLength = o.maxLabelValueLength;
      maxLabelsPerSeries = o.maxLabelsPerSeries;
      maxSeries = o.maxSeries;
      maxSeriesPerMetric = o.maxSeriesPerMetric;
      walSegmentBytes = o.walSegmentBytes;
      compactionInterval = o.compactionInterval;
      clock = o.clock;
    }

    TsdbOptions build() {
      return new TsdbOptions(
          path,
          retention,
          retentionBytes,
          blockRange,
          outOfOrderWindow,
          futureTolerance,
          maxLabelNameLength,
          maxLabelValueLength,
          maxLabelsPerSeries,
          maxSeries,
          maxSeriesPerMetric,
          walSegmentBytes,
          compactionInterval,
          clock);
    }
  }
}
