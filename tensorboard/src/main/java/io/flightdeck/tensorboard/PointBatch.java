package io.flightdeck.tensorboard;

import java.util.Arrays;
import java.util.List;

/**
 * Decoded points of one run in file order, as the import's decoding thread hands them over: scalars
 * and legacy histograms as columns of fields, other points as objects. A 1 GB import decodes some
 * 13 million scalars and half a million histograms; a {@link ScalarPoint} each was a third of all
 * it allocated, and a {@link HistogramPoint} with its copied counts most of the rest, which the
 * collector swept while both import threads stood still. Batches are reused once consumed. Not
 * thread-safe: one thread fills a batch, then another reads it.
 */
final class PointBatch {
  private static final byte SCALAR = 0;
  private static final byte HISTOGRAM = 1;
  private static final byte POINT = 2;

  /** A histogram's fields in {@link #histogramFields} before its counts. */
  private static final int FIELDS_BEFORE_COUNTS = 6;

  private final byte[] kinds;
  private final SummaryPoint[] points;
  private final String[] tags;
  private final long[] steps;

  /** Scalars' wall times, in milliseconds: converted on the decoding thread, which has time. */
  private final long[] wallMillis;

  /** Histograms' wall times, in seconds. */
  private final double[] wallTimes;

  private final double[] values;

  /** A histogram's bucket limits, kept as the decoder shares them from step to step. */
  private final List<Double>[] limits;

  /** Where a histogram's fields start in {@link #histogramFields}. */
  private final int[] fieldsAt;

  /**
   * The histograms' fields one after the other: min, max, num, sum, sum of squares, where the
   * counts end (an index, exact as a double), then the counts.
   */
  private double[] histogramFields = new double[1024];

  private int histogramFieldsUsed;

  /** What {@link #writeTo} hands the ingester each histogram in. */
  private final HistogramFields histogram = new HistogramFields();

  private String run;
  private int size;

  @SuppressWarnings("unchecked") // an array of a generic type, filled here
  PointBatch(int capacity) {
    kinds = new byte[capacity];
    points = new SummaryPoint[capacity];
    tags = new String[capacity];
    steps = new long[capacity];
    wallMillis = new long[capacity];
    wallTimes = new double[capacity];
    values = new double[capacity];
    limits = new List[capacity];
    fieldsAt = new int[capacity];
  }

  /**
   * Empties the batch for points of {@code run}. Entries are overwritten, not cleared: what an
   * earlier use left past the new size (a batch is reused full but for the last of a file) is a few
   * stale references at most.
   */
  PointBatch reset(String run) {
    this.run = run;
    size = 0;
    histogramFieldsUsed = 0;
    return this;
  }

  String run() {
    return run;
  }

  int size() {
    return size;
  }

  boolean isFull() {
    return size == points.length;
  }

  void add(SummaryPoint point) {
    kinds[size] = POINT;
    points[size++] = point;
  }

  void addScalar(String tag, long step, double wallTimeSeconds, double value) {
    kinds[size] = SCALAR;
    tags[size] = tag;
    steps[size] = step;
    wallMillis[size] = TensorBoardIngester.wallMillis(wallTimeSeconds);
    values[size] = value;
    size++;
  }

  /** Adds a copy of the histogram's fields (see {@link EventListener#histogram}). */
  void addHistogram(HistogramFields h) {
    int at = histogramFieldsUsed;
    int end = at + FIELDS_BEFORE_COUNTS + h.countCount();
    if (end > histogramFields.length) {
      histogramFields = Arrays.copyOf(histogramFields, Math.max(end, 2 * histogramFields.length));
    }
    double[] f = histogramFields;
    f[at] = h.min;
    f[at + 1] = h.max;
    f[at + 2] = h.num;
    f[at + 3] = h.sum;
    f[at + 4] = h.sumSquares;
    f[at + 5] = end;
    h.copyCounts(f, at + FIELDS_BEFORE_COUNTS);
    histogramFieldsUsed = end;
    kinds[size] = HISTOGRAM;
    tags[size] = h.tag;
    steps[size] = h.step;
    wallTimes[size] = h.wallTimeSeconds;
    limits[size] = h.bucketLimits;
    fieldsAt[size] = at;
    size++;
  }

  /** Writes every point to {@code ingester}, in order. */
  void writeTo(TensorBoardIngester ingester) {
    double[] f = histogramFields;
    for (int i = 0; i < size; i++) {
      byte kind = kinds[i];
      if (kind == SCALAR) {
        ingester.writeScalar(run, tags[i], steps[i], wallMillis[i], values[i]);
      } else if (kind == HISTOGRAM) {
        int at = fieldsAt[i];
        HistogramFields h = histogram;
        h.tag = tags[i];
        h.step = steps[i];
        h.wallTimeSeconds = wallTimes[i];
        h.min = f[at];
        h.max = f[at + 1];
        h.num = f[at + 2];
        h.sum = f[at + 3];
        h.sumSquares = f[at + 4];
        h.bucketLimits = limits[i];
        h.counts = f;
        h.countsFrom = at + FIELDS_BEFORE_COUNTS;
        h.countsTo = (int) f[at + 5];
        ingester.writeHistogram(run, h);
      } else {
        ingester.write(run, points[i]);
      }
    }
  }
}
