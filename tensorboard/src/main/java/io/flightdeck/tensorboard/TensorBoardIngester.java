package io.flightdeck.tensorboard;

import io.flightdeck.model.Labels;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.storage.Appendable;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.SampleRejectedException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes decoded points of one logdir through an {@link Appendable} under the names described in
 * {@code tensorboard/docs/naming.md}: scalars with their steps, histograms as Prometheus classic
 * histograms with their steps; text samples, images and hparams run metadata into the {@link
 * SideStores} given (a PyTorch hparams sub-run's metadata under its parent run, see {@link
 * #discovered}). Graphs and unsupported plugins are counted as skipped.
 *
 * <p>Timestamps are the events' wall times in ms, made strictly increasing per series (a wall time
 * not after the series' previous timestamp becomes previous + 1 ms), so no point is lost or
 * overwritten and a re-read of the same files gives the same timestamps.
 *
 * <p>A step at or below the previous step of the same run and tag is a restart from a checkpoint:
 * as in TensorBoard the new point supersedes the earlier ones at or after its step. Nothing is
 * deleted from the append-only storage; a {@link #RESTART_STEP} sample at the new point's timestamp
 * records the step from which earlier points are superseded (see {@code
 * tensorboard/docs/tailing.md}).
 *
 * <p>Samples are committed once {@code batchSize} of them are pending, after the point that brought
 * them there (a scalar's value and step, a histogram's buckets, go in together), and on {@link
 * #commit()}, which the caller must call at the end; only that commit syncs the side stores.
 * Rejected samples are counted, not thrown. Not thread-safe.
 */
public final class TensorBoardIngester {
  public static final String SCALAR = "tensorboard_scalar";
  public static final String SCALAR_STEP = "tensorboard_scalar_step";
  public static final String HISTOGRAM_BUCKET = "tensorboard_histogram_bucket";
  public static final String HISTOGRAM_COUNT = "tensorboard_histogram_count";
  public static final String HISTOGRAM_SUM = "tensorboard_histogram_sum";
  public static final String HISTOGRAM_STEP = "tensorboard_histogram_step";
  public static final String HISTOGRAM_QUANTILE = "tensorboard_histogram_quantile";
  public static final String HISTOGRAM_BIN_EDGE = "tensorboard_histogram_bin_edge";
  public static final String HISTOGRAM_BIN_COUNT = "tensorboard_histogram_bin_count";
  public static final String RESTART_STEP = "tensorboard_restart_step";

  /**
   * The most bucket bounds one histogram tag may have. Writers with fixed edges (PyTorch's and
   * TF1's default exponential bins) stay far below; edges that move at every step (TF2's even
   * buckets between min and max, NumPy's {@code bins='auto'}) would add bounds, and series,
   * forever.
   */
  static final int MAX_BUCKET_BOUNDS = 1024;

  /**
   * The most bins a distribution-form point keeps exactly, by position ({@link
   * #HISTOGRAM_BIN_COUNT}); a point with more is kept as its distribution only.
   */
  static final int MAX_EXACT_BINS = 1024;

  private final Appendable storage;
  private final SideStores stores;
  private final String logdir;
  private final int batchSize;
  private final Map<String, RunSeries> runs = new HashMap<>();
  private final Map<String, String> hparamsParents = new HashMap<>();

  /** What {@link #write} hands a histogram point's fields on in. */
  private final HistogramFields pointFields = new HistogramFields();

  private RunSeries lastRun;
  private Appender appender;
  private int pending;
  private long scalarPoints;
  private long histogramPoints;
  private long textPoints;
  private long imagePoints;
  private long hparamsPoints;
  private long skipped;
  private long rejectedSamples;

  /** An ingester that counts texts, images and hparams without storing them. */
  public TensorBoardIngester(Appendable storage, String logdir, int batchSize) {
    this(storage, SideStores.NONE, logdir, batchSize);
  }

  /**
   * @param stores where texts, images and hparams go
   * @param logdir the logdir as the user gave it, stored in the {@code logdir} label
   * @param batchSize pending samples that make a commit (see above)
   */
  public TensorBoardIngester(Appendable storage, SideStores stores, String logdir, int batchSize) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be positive, got " + batchSize);
    }
    this.storage = storage;
    this.stores = stores;
    this.logdir = logdir;
    this.batchSize = batchSize;
  }

  /**
   * Notes a run found in the logdir; the hparams of a PyTorch {@code add_hparams} sub-run are then
   * stored as its parent run's.
   */
  public void discovered(TensorBoardRun run) {
    run.hparamsParent().ifPresent(parent -> hparamsParents.put(run.name(), parent));
  }

  /** Stores or counts one point of run {@code run} (the run's name relative to the logdir). */
  public void write(String run, SummaryPoint point) {
    switch (point) {
      case ScalarPoint p ->
          writeScalar(run, p.tag(), p.step(), wallMillis(p.wallTimeSeconds()), p.value());
      case HistogramPoint p -> writeHistogram(run, pointFields.of(p));
      case TextPoint p -> writeText(run, p);
      case ImagePoint p -> writeImage(run, p);
      case HParamsPoint p -> writeHParams(run, p);
      case SkippedValue p -> skipped++;
    }
  }

  /** Commits what is pending and makes the side stores durable. */
  public void commit() {
    commitSamples();
    stores.sync();
  }

  /** Discards what is pending, after the storage failed; the ingester stays usable. */
  public void rollback() {
    if (appender != null) {
      Appender failed = appender;
      appender = null;
      pending = 0;
      failed.rollback();
    }
  }

  public long scalarPoints() {
    return scalarPoints;
  }

  public long histogramPoints() {
    return histogramPoints;
  }

  /** Text points handed to the text store (or only counted when there is none). */
  public long textPoints() {
    return textPoints;
  }

  /** Images handed to the image store (or only counted when there is none). */
  public long imagePoints() {
    return imagePoints;
  }

  /** Hparams points handed to the hparams store (or only counted when there is none). */
  public long hparamsPoints() {
    return hparamsPoints;
  }

  /** Graphs and values of unsupported plugins: read but not stored. */
  public long skipped() {
    return skipped;
  }

  /** Samples the storage refused (see {@link SampleRejectedException}). */
  public long rejectedSamples() {
    return rejectedSamples;
  }

  /** The run's series; points come run by run, so the last run answers almost every lookup. */
  private RunSeries series(String run) {
    if (lastRun == null || !lastRun.run.equals(run)) {
      lastRun = runs.computeIfAbsent(run, RunSeries::new);
    }
    return lastRun;
  }

  /**
   * {@link #write} of a {@link ScalarPoint} with these fields, without the object (see {@link
   * EventListener#scalar}), its wall time already in milliseconds ({@link #wallMillis}): the
   * import's decoding thread, which has time to spare, converts it.
   */
  public void writeScalar(String run, String tag, long step, long wallMillis, double value) {
    RunSeries r = series(run);
    ScalarSeries s = r.scalar(tag);
    if (s == null) {
      s = scalarSeries(new Key(r.run, tag));
      r.scalars.put(tag, s);
    }
    r.wrote(s);
    long t = s.clock.next(wallMillis);
    s.values[0] = value;
    s.values[1] = step;
    appendAll(s.refs, s.labels, t, s.values, 2);
    s.restarts.observe(step, t);
    scalarPoints++;
  }

  /**
   * {@link #write} of a {@link HistogramPoint} with these fields, without the object (see {@link
   * EventListener#histogram}).
   */
  public void writeHistogram(String run, HistogramFields h) {
    RunSeries r = series(run);
    HistogramSeries s = r.histograms.get(h.tag);
    if (s == null) {
      s = histogramSeries(new Key(r.run, h.tag));
      r.histograms.put(h.tag, s);
    }
    long t = s.clock.next(wallMillis(h.wallTimeSeconds));
    DoubleList limits = DoubleList.copyOf(h.bucketLimits);
    // Most writers keep a tag's edges fixed: only a new layout can add bounds.
    if (s.quantiles == null && !limits.equals(s.lastLimits)) {
      if (s.wouldExceed(limits, MAX_BUCKET_BOUNDS)) {
        switchToDistribution(s, t);
      } else {
        for (Double limit : limits) {
          if (limit < Double.MAX_VALUE) {
            Key key = s.key;
            s.buckets.computeIfAbsent(limit, le -> labels(HISTOGRAM_BUCKET, key, le));
          }
        }
        s.lastLimits = limits;
        s.layoutChanged();
      }
    }
    double total = h.totalCount();
    if (s.quantiles == null) {
      writeBuckets(s, limits, h, t, total);
    } else {
      // Rare (edges that move at every step): the point itself, for the distribution's code.
      HistogramPoint p = h.toPoint();
      double[] values = HistogramDistribution.of(p);
      for (int q = 0; q < values.length; q++) {
        Ref ref = s.quantiles[q];
        ref.ref = append(ref.ref, ref.labels, t, values[q]);
      }
      writeBins(s, p, t);
    }
    s.count.ref = append(s.count.ref, s.count.labels, t, total);
    // The histograms plugin's [k,3] form has no sum; leave a gap rather than store a NaN.
    if (!Double.isNaN(h.sum)) {
      s.sum.ref = append(s.sum.ref, s.sum.labels, t, h.sum);
    }
    s.step.ref = append(s.step.ref, s.step.labels, t, h.step);
    s.restarts.observe(h.step, t);
    histogramPoints++;
  }

  /**
   * Every bound the series ever had gets a value, so a query at this time never mixes in a bucket
   * left over from an earlier step with a different layout.
   */
  private void writeBuckets(
      HistogramSeries s, DoubleList limits, HistogramFields h, long t, double total) {
    double cumulative = 0;
    int i = 0;
    int n = Math.min(limits.size(), h.countCount());
    double[] values = s.bucketValues;
    int bounds = s.bounds.length;
    for (int b = 0; b < bounds; b++) {
      double bound = s.bounds[b];
      while (i < n && limits.getDouble(i) <= bound) {
        cumulative += h.bucketCount(i++);
      }
      values[b] = cumulative;
    }
    values[bounds] = total;
    appendAll(s.bucketRefs, s.bucketLabels, t, values, bounds + 1);
  }

  /**
   * A distribution-form point also keeps its own bins by position, as TensorBoard's histogram view
   * draws a legacy histogram: the empty bins at either end dropped, the first bin starting at the
   * minimum and the last ending at the maximum ({@code [k,3]} tensors of contiguous bins, as TF2
   * writes them, come out unchanged). Bin {@code j} spans {@code bin_edge{edge="j"}} to {@code
   * bin_edge{edge="j+1"}} and holds {@code bin_count{bin="j"}}. Positions a point does not use get
   * a staleness marker, so that no query mixes an earlier point's bins in.
   */
  private void writeBins(HistogramSeries s, HistogramPoint p, long t) {
    int n = p.bucketCounts().size();
    int first = 0;
    while (first < n && p.bucketCount(first) <= 0) {
      first++;
    }
    int last = n - 1;
    while (last >= first && p.bucketCount(last) <= 0) {
      last--;
    }
    int bins = last - first + 1;
    if (bins > MAX_EXACT_BINS) {
      bins = 0;
    }
    for (int j = 0; j < bins; j++) {
      append(
          position(s.binCounts, HISTOGRAM_BIN_COUNT, "bin", s.key, j), t, p.bucketCount(first + j));
      double lower = j == 0 ? p.min() : p.bucketLimit(first + j - 1);
      append(position(s.binEdges, HISTOGRAM_BIN_EDGE, "edge", s.key, j), t, lower);
    }
    if (bins > 0) {
      append(position(s.binEdges, HISTOGRAM_BIN_EDGE, "edge", s.key, bins), t, p.max());
    }
    for (int j = bins; j < s.binCounts.size(); j++) {
      append(s.binCounts.get(j), t, StaleMarker.VALUE);
    }
    for (int j = bins == 0 ? 0 : bins + 1; j < s.binEdges.size(); j++) {
      append(s.binEdges.get(j), t, StaleMarker.VALUE);
    }
  }

  private void append(Ref ref, long t, double v) {
    ref.ref = append(ref.ref, ref.labels, t, v);
  }

  /** The series at {@code index} of a tag's positional series, created on first use. */
  private Ref position(List<Ref> refs, String metric, String label, Key key, int index) {
    while (refs.size() <= index) {
      refs.add(
          new Ref(
              labels(metric, key, null).toBuilder()
                  .set(label, Integer.toString(refs.size()))
                  .build()));
    }
    return refs.get(index);
  }

  /**
   * From {@code t} on the tag is stored as its distribution ({@link #HISTOGRAM_QUANTILE}); its
   * bucket series end with a staleness marker, so no query mixes their last values in.
   */
  private void switchToDistribution(HistogramSeries s, long t) {
    for (int b = 0; b < s.bucketRefs.length; b++) {
      s.bucketRefs[b] = append(s.bucketRefs[b], s.bucketLabels[b], t, StaleMarker.VALUE);
    }
    s.quantiles = new Ref[HistogramDistribution.BASIS_POINTS.length];
    for (int q = 0; q < s.quantiles.length; q++) {
      Labels labels =
          labels(HISTOGRAM_QUANTILE, s.key, null).toBuilder()
              .set("quantile", PrometheusFloat.format(HistogramDistribution.BASIS_POINTS[q] / 1e4))
              .build();
      s.quantiles[q] = new Ref(labels);
    }
  }

  private void writeText(String run, TextPoint p) {
    if (stores.texts() != null) {
      stores.texts().append(run, p);
    }
    textPoints++;
  }

  private void writeImage(String run, ImagePoint p) {
    if (stores.images() != null) {
      stores.images().append(run, p);
    }
    imagePoints++;
  }

  private void writeHParams(String run, HParamsPoint p) {
    if (stores.hparams() != null) {
      stores.hparams().append(hparamsParents.getOrDefault(run, run), p);
    }
    hparamsPoints++;
  }

  private long append(long ref, Labels labels, long t, double value) {
    long next = ref;
    try {
      next = appender().append(ref, labels, t, value);
    } catch (SampleRejectedException e) {
      rejectedSamples++;
    }
    if (++pending >= batchSize) {
      // A full batch commits samples only: syncing the side stores here cost an fdatasync per
      // batch whenever a text came in it; the caller's commit makes them durable.
      commitSamples();
    }
    return next;
  }

  /** {@link #append} of one sample at {@code t} to each of {@code count} series, in one call. */
  private void appendAll(long[] refs, Labels[] labels, long t, double[] values, int count) {
    rejectedSamples += appender().appendAll(refs, labels, t, values, count);
    pending += count;
    if (pending >= batchSize) {
      commitSamples();
    }
  }

  /** The open batch's appender, opened on the first sample after a commit. */
  private Appender appender() {
    if (appender == null) {
      appender = storage.appender();
    }
    return appender;
  }

  private void commitSamples() {
    if (appender != null) {
      appender.commit();
      appender = null;
      pending = 0;
    }
  }

  private ScalarSeries scalarSeries(Key key) {
    return new ScalarSeries(
        key.tag, labels(SCALAR, key, null), labels(SCALAR_STEP, key, null), restarts(key));
  }

  private HistogramSeries histogramSeries(Key key) {
    return new HistogramSeries(
        key,
        labels(HISTOGRAM_BUCKET, key, Double.POSITIVE_INFINITY),
        new Ref(labels(HISTOGRAM_COUNT, key, null)),
        new Ref(labels(HISTOGRAM_SUM, key, null)),
        new Ref(labels(HISTOGRAM_STEP, key, null)),
        restarts(key));
  }

  private Restarts restarts(Key key) {
    return new Restarts(new Ref(labels(RESTART_STEP, key, null)));
  }

  private Labels labels(String metric, Key key, Double le) {
    Labels.Builder b =
        Labels.builder()
            .set(Labels.METRIC_NAME, metric)
            .set("tag", key.tag)
            .set("run", key.run)
            .set("logdir", logdir);
    if (le != null) {
      b.set("le", PrometheusFloat.format(le));
    }
    return b.build();
  }

  private record Key(String run, String tag) {}

  /** The series of one run, by tag. */
  private static final class RunSeries {
    final String run;
    final Map<String, ScalarSeries> scalars = new HashMap<>();
    final Map<String, HistogramSeries> histograms = new HashMap<>();

    /** The scalar series written last: a run logs its tags in the same order at every step. */
    private ScalarSeries lastScalar;

    RunSeries(String run) {
      this.run = run;
    }

    /** The tag's scalar series, or null; tries the one written after the last one first. */
    ScalarSeries scalar(String tag) {
      ScalarSeries guess = lastScalar == null ? null : lastScalar.next;
      // Decoders give a run's tag as one String, so a right guess is equal by reference.
      return guess != null && guess.tag.equals(tag) ? guess : scalars.get(tag);
    }

    void wrote(ScalarSeries s) {
      if (lastScalar != null) {
        lastScalar.next = s;
      }
      lastScalar = s;
    }
  }

  /** An event's wall time in whole milliseconds, as series store it: rounded down. */
  public static long wallMillis(double wallTimeSeconds) {
    return floorToLong(wallTimeSeconds * 1000);
  }

  /**
   * {@code (long) Math.floor(x)}: C1 calls {@code StrictMath.floor}'s bit manipulations for that,
   * once per point. A conversion truncates toward zero, one too high for a negative fraction; at or
   * below -2^63 it already gives the lowest long.
   */
  static long floorToLong(double x) {
    long truncated = (long) x;
    return truncated > x && truncated != Long.MIN_VALUE ? truncated - 1 : truncated;
  }

  /** Makes a series' timestamps strictly increasing, the same way on every read. */
  private static final class SeriesClock {
    private long last = Long.MIN_VALUE;

    long next(long wall) {
      last = wall > last ? wall : last + 1;
      return last;
    }
  }

  /**
   * Follows TensorBoard's kept points: after each point the newest kept step is that point's step,
   * so a step not above it preempts.
   */
  private final class Restarts {
    final Ref marker;
    long lastStep = Long.MIN_VALUE;

    Restarts(Ref marker) {
      this.marker = marker;
    }

    void observe(long step, long t) {
      if (step <= lastStep) {
        marker.ref = append(marker.ref, marker.labels, t, step);
      }
      lastStep = step;
    }
  }

  private static final class Ref {
    final Labels labels;
    long ref;

    Ref(Labels labels) {
      this.labels = labels;
    }
  }

  private static final class ScalarSeries {
    final String tag;

    /** The value's series and the step's, with their references and a point's two values. */
    final Labels[] labels;

    final long[] refs = new long[2];
    final double[] values = new double[2];
    final Restarts restarts;
    final SeriesClock clock = new SeriesClock();

    /** The run's scalar series written after this one, the last time. */
    ScalarSeries next;

    ScalarSeries(String tag, Labels value, Labels step, Restarts restarts) {
      this.tag = tag;
      this.labels = new Labels[] {value, step};
      this.restarts = restarts;
    }
  }

  private static final class HistogramSeries {
    final Key key;
    final Ref count;
    final Ref sum;
    final Ref step;

    /** The bucket series' labels by bound, +Inf's aside. */
    final TreeMap<Double, Labels> buckets = new TreeMap<>();

    final Restarts restarts;
    List<Double> lastLimits;

    /** {@link #buckets} in bound order, for the loop run at every point. */
    double[] bounds = new double[0];

    /**
     * The bucket series in bound order and +Inf's last, with their references and a place for a
     * point's values: appended all at once.
     */
    Labels[] bucketLabels;

    long[] bucketRefs = new long[1];
    double[] bucketValues = new double[1];

    final SeriesClock clock = new SeriesClock();

    HistogramSeries(Key key, Labels infLabels, Ref count, Ref sum, Ref step, Restarts restarts) {
      this.key = key;
      this.bucketLabels = new Labels[] {infLabels};
      this.count = count;
      this.sum = sum;
      this.step = step;
      this.restarts = restarts;
    }

    /** Once set, the tag is stored as its distribution, one series per basis point. */
    Ref[] quantiles;

    /** A distribution-form tag's bins by position, as many as its widest point had. */
    final List<Ref> binCounts = new ArrayList<>();

    final List<Ref> binEdges = new ArrayList<>();

    /** Whether this layout would take the tag past {@code max} distinct bounds. */
    boolean wouldExceed(List<Double> limits, int max) {
      int added = 0;
      for (Double limit : limits) {
        if (limit < Double.MAX_VALUE && !buckets.containsKey(limit)) {
          added++;
        }
      }
      return buckets.size() + added > max;
    }

    /** Rebuilds the arrays from {@link #buckets}, keeping the references of the bounds kept. */
    void layoutChanged() {
      int n = buckets.size();
      double[] newBounds = new double[n];
      Labels[] labels = new Labels[n + 1];
      long[] refs = new long[n + 1];
      int b = 0;
      int old = 0;
      for (Map.Entry<Double, Labels> e : buckets.entrySet()) {
        newBounds[b] = e.getKey();
        labels[b] = e.getValue();
        // Layouts only add bounds: each old one is found walking both in order.
        while (old < bounds.length && Double.compare(bounds[old], newBounds[b]) < 0) {
          old++;
        }
        refs[b] = old < bounds.length && bounds[old] == newBounds[b] ? bucketRefs[old] : 0;
        b++;
      }
      labels[n] = bucketLabels[bucketLabels.length - 1];
      refs[n] = bucketRefs[bucketRefs.length - 1];
      bounds = newBounds;
      bucketLabels = labels;
      bucketRefs = refs;
      bucketValues = new double[n + 1];
    }
  }
}
