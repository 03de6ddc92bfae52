package io.flightdeck.tensorboard;

/**
 * Decoded points of one run in file order, as the import's decoding thread hands them over: scalars
 * as columns of fields, other points as objects. A 1 GB import decodes some 13 million scalars; a
 * {@link ScalarPoint} each was a third of all it allocated, which the collector swept while both
 * import threads stood still. Batches are reused once consumed. Not thread-safe: one thread fills a
 * batch, then another reads it.
 */
final class PointBatch {
  private final SummaryPoint[] points;
  private final String[] tags;
  private final long[] steps;
  private final double[] wallTimes;
  private final double[] values;
  private String run;
  private int size;

  PointBatch(int capacity) {
    points = new SummaryPoint[capacity];
    tags = new String[capacity];
    steps = new long[capacity];
    wallTimes = new double[capacity];
    values = new double[capacity];
  }

  /**
   * Empties the batch for points of {@code run}. Entries are overwritten, not cleared: a scalar's
   * entry sets its point to null, and what an earlier use left past the new size (a batch is reused
   * full but for the last of a file) is a few stale references at most.
   */
  PointBatch reset(String run) {
    this.run = run;
    size = 0;
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
    points[size++] = point;
  }

  void addScalar(String tag, long step, double wallTimeSeconds, double value) {
    points[size] = null;
    tags[size] = tag;
    steps[size] = step;
    wallTimes[size] = wallTimeSeconds;
    values[size] = value;
    size++;
  }

  /** Writes every point to {@code ingester}, in order. */
  void writeTo(TensorBoardIngester ingester) {
    for (int i = 0; i < size; i++) {
      SummaryPoint point = points[i];
      if (point == null) {
        ingester.writeScalar(run, tags[i], steps[i], wallTimes[i], values[i]);
      } else {
        ingester.write(run, point);
      }
    }
  }
}
