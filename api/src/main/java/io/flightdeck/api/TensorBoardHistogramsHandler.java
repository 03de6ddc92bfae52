package io.flightdeck.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.google.re2j.Pattern;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.Queryable;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.SeriesSet;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code tensorboard/histograms?logdir=&run=&tag=}: one histogram series, a point per stored
 * histogram by step: {@code {"step":n, "wall_time":..., "count":"n", "sum":"s",
 * "buckets":[["lower", "upper", "count"], ...]}}. Buckets come back from the cumulative {@code
 * tensorboard_histogram_bucket} series as TensorBoard draws them: each bucket's own count between
 * consecutive bounds, the first from {@code -Inf}. {@code sum} is absent where none was stored.
 *
 * <p>A tag whose edges moved too often to keep as buckets is stored as its distribution from some
 * point on (naming.md): those points carry {@code "distribution":[["0","v"], ["0.0668","v"], ...]},
 * the value at each fraction of the weight as TensorBoard's Distributions dashboard draws it, and
 * their own bins, kept by position, as buckets. A point with more bins than the ingester keeps
 * exactly gets buckets derived from the distribution instead (between consecutive values, each with
 * its share of the count).
 *
 * <p>Points a restart superseded are left out as TensorBoard does (a point with step {@code s}
 * hides every earlier point with step {@code >= s}), as for scalars.
 */
final class TensorBoardHistogramsHandler {
  private static final Pattern BIN_POSITION = Pattern.compile("0|[1-9][0-9]{0,8}");

  private final Queryable storage;

  TensorBoardHistogramsHandler(Queryable storage) {
    this.storage = storage;
  }

  private record Bound(double le, String text) {}

  byte[] histograms(Params params) {
    List<Bound> bounds = new ArrayList<>();
    List<Map<Long, Double>> cumulative = new ArrayList<>();
    TreeMap<Long, Double> counts = new TreeMap<>();
    Map<Long, Double> steps = new HashMap<>();
    Map<Long, Double> sums = new HashMap<>();
    TreeMap<Double, String> quantileNames = new TreeMap<>();
    Map<String, Map<Long, Double>> quantiles = new HashMap<>();
    List<Map<Long, Double>> binEdges = new ArrayList<>();
    List<Map<Long, Double>> binCounts = new ArrayList<>();
    try (Querier querier = storage.querier(Params.MIN_TIME, Params.MAX_TIME)) {
      SeriesSet buckets =
          querier.select(false, TensorBoardParams.series(params, TensorBoardApi.HISTOGRAM_BUCKET));
      while (buckets.next()) {
        String le = buckets.at().labels().get("le");
        bounds.add(new Bound(parseLe(le), le));
        cumulative.add(read(buckets.at().iterator(null), new HashMap<>()));
      }
      SeriesSet step =
          querier.select(false, TensorBoardParams.series(params, TensorBoardApi.HISTOGRAM_STEP));
      if (step.next()) {
        read(step.at().iterator(null), steps);
      }
      SeriesSet count =
          querier.select(false, TensorBoardParams.series(params, TensorBoardApi.HISTOGRAM_COUNT));
      if (count.next()) {
        read(count.at().iterator(null), counts);
      }
      SeriesSet sum =
          querier.select(false, TensorBoardParams.series(params, TensorBoardApi.HISTOGRAM_SUM));
      if (sum.next()) {
        read(sum.at().iterator(null), sums);
      }
      SeriesSet distribution =
          querier.select(
              false, TensorBoardParams.series(params, TensorBoardApi.HISTOGRAM_QUANTILE));
      while (distribution.next()) {
        String q = distribution.at().labels().get("quantile");
        quantileNames.put(Double.parseDouble(q), q);
        quantiles.put(q, read(distribution.at().iterator(null), new HashMap<>()));
      }
      readByPosition(querier, params, TensorBoardApi.HISTOGRAM_BIN_EDGE, "edge", binEdges);
      readByPosition(querier, params, TensorBoardApi.HISTOGRAM_BIN_COUNT, "bin", binCounts);
    }
    List<long[]> kept = keptPoints(counts.keySet(), steps);
    Integer[] order = new Integer[bounds.size()];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, (a, b) -> Double.compare(bounds.get(a).le(), bounds.get(b).le()));
    return ApiJson.success(
        out -> {
          out.writeStartArray();
          for (long[] point : kept) {
            long t = point[0];
            out.writeStartObject();
            out.writeNumberField("step", point[1]);
            out.writeFieldName("wall_time");
            ApiJson.timestamp(out, t);
            out.writeStringField("count", GoFloats.sampleValue(counts.get(t)));
            Double s = sums.get(t);
            if (s != null) {
              out.writeStringField("sum", GoFloats.sampleValue(s));
            }
            List<String[]> distribution = new ArrayList<>();
            for (String q : quantileNames.values()) {
              Double value = quantiles.get(q).get(t);
              if (value != null) {
                distribution.add(new String[] {q, GoFloats.sampleValue(value)});
              }
            }
            out.writeArrayFieldStart("buckets");
            if (distribution.isEmpty()) {
              writeStoredBuckets(out, order, bounds, cumulative, t);
            } else {
              if (!writeBins(out, binEdges, binCounts, t)) {
                writeDistributionBuckets(out, distribution, counts.get(t));
              }
              out.writeEndArray();
              out.writeArrayFieldStart("distribution");
              for (String[] pair : distribution) {
                out.writeStartArray();
                out.writeString(pair[0]);
                out.writeString(pair[1]);
                out.writeEndArray();
              }
            }
            out.writeEndArray();
            out.writeEndObject();
          }
          out.writeEndArray();
        });
  }

  /** Each bucket's own count between consecutive stored bounds, the first from {@code -Inf}. */
  private static void writeStoredBuckets(
      JsonGenerator out,
      Integer[] order,
      List<Bound> bounds,
      List<Map<Long, Double>> cumulative,
      long t)
      throws IOException {
    String lower = "-Inf";
    double below = 0;
    for (int i : order) {
      // A bound first seen at a later point has no sample here.
      Double upTo = cumulative.get(i).get(t);
      if (upTo != null) {
        String upper = bounds.get(i).text();
        writeBucket(out, lower, upper, upTo - below);
        lower = upper;
        below = upTo;
      }
    }
  }

  /**
   * Fills {@code into} with one map of samples per position of a positional series ({@code label} =
   * 0, 1, ...), in position order.
   */
  private static void readByPosition(
      Querier querier, Params params, String metric, String label, List<Map<Long, Double>> into) {
    TreeMap<Integer, Map<Long, Double>> byPosition = new TreeMap<>();
    SeriesSet set = querier.select(false, TensorBoardParams.series(params, metric));
    while (set.next()) {
      String position = set.at().labels().get(label);
      // Series of this name that another writer gave a label the ingester never writes are not
      // the tag's bins.
      if (position != null && BIN_POSITION.matches(position)) {
        byPosition.put(Integer.parseInt(position), read(set.at().iterator(null), new HashMap<>()));
      }
    }
    for (int i = 0; byPosition.containsKey(i); i++) {
      into.add(byPosition.get(i));
    }
  }

  /**
   * The point's own bins, kept by position: bin j from edge j to edge j + 1. False when the point
   * has none (it had more than the ingester keeps).
   */
  private static boolean writeBins(
      JsonGenerator out, List<Map<Long, Double>> edges, List<Map<Long, Double>> counts, long t)
      throws IOException {
    if (!hasBin(edges, counts, 0, t)) {
      return false;
    }
    for (int j = 0; hasBin(edges, counts, j, t); j++) {
      writeBucket(
          out,
          GoFloats.sampleValue(edges.get(j).get(t)),
          GoFloats.sampleValue(edges.get(j + 1).get(t)),
          counts.get(j).get(t));
    }
    return true;
  }

  private static boolean hasBin(
      List<Map<Long, Double>> edges, List<Map<Long, Double>> counts, int j, long t) {
    return j < counts.size()
        && j + 1 < edges.size()
        && counts.get(j).containsKey(t)
        && edges.get(j).containsKey(t)
        && edges.get(j + 1).containsKey(t);
  }

  /**
   * Buckets between consecutive distribution values, each holding its share of the count: the
   * histogram view's approximation where a point's bins were too many to keep.
   */
  private static void writeDistributionBuckets(
      JsonGenerator out, List<String[]> distribution, double count) throws IOException {
    for (int i = 1; i < distribution.size(); i++) {
      String[] from = distribution.get(i - 1);
      String[] to = distribution.get(i);
      double share = Double.parseDouble(to[0]) - Double.parseDouble(from[0]);
      writeBucket(out, from[1], to[1], count * share);
    }
  }

  private static void writeBucket(JsonGenerator out, String lower, String upper, double count)
      throws IOException {
    out.writeStartArray();
    out.writeString(lower);
    out.writeString(upper);
    out.writeString(GoFloats.sampleValue(count));
    out.writeEndArray();
  }

  /**
   * {@code [time, step]} of the points a step-axis view shows, in time order: a step not above the
   * last kept one supersedes it (and those before it down to a lower step). A point without a step
   * sample (one refused by storage) is left out.
   */
  private static List<long[]> keptPoints(Iterable<Long> times, Map<Long, Double> steps) {
    List<long[]> kept = new ArrayList<>();
    for (long t : times) {
      Double step = steps.get(t);
      if (step == null) {
        continue;
      }
      while (!kept.isEmpty() && kept.getLast()[1] >= step.longValue()) {
        kept.removeLast();
      }
      kept.add(new long[] {t, step.longValue()});
    }
    return kept;
  }

  /** The samples by timestamp, without the staleness marker that ends a bucket series. */
  private static Map<Long, Double> read(SampleIterator samples, Map<Long, Double> into) {
    while (samples.next()) {
      if (!StaleMarker.is(samples.value())) {
        into.put(samples.timestamp(), samples.value());
      }
    }
    return into;
  }

  /** An {@code le} as the ingester writes it: Go's {@code %g}, or {@code +Inf}. */
  private static double parseLe(String le) {
    return le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
  }
}
