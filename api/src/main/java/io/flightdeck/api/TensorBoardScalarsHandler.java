package io.flightdeck.api;

import io.flightdeck.storage.Querier;
import io.flightdeck.storage.Queryable;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.SeriesSet;
import java.util.Arrays;

/**
 * {@code tensorboard/scalars?logdir=&run=&tag=}: one scalar series against step at full resolution,
 * {@code [[step, wall_time, "value"], ...]} by step. Value and step are the samples of {@code
 * tensorboard_scalar} and {@code tensorboard_scalar_step} at equal timestamps; the wall time is
 * that timestamp (the event's wall time in ms, shifted by a ms where several steps shared one).
 *
 * <p>Points a restart superseded are left out as TensorBoard does: a point with step {@code s}
 * hides every earlier point with step {@code >= s}. This is what {@code tensorboard_restart_step}
 * marks, recomputed here from the steps themselves.
 */
final class TensorBoardScalarsHandler {
  private final Queryable storage;

  TensorBoardScalarsHandler(Queryable storage) {
    this.storage = storage;
  }

  byte[] scalars(Params params) {
    Points points = new Points();
    try (Querier querier = storage.querier(Params.MIN_TIME, Params.MAX_TIME)) {
      SeriesSet values =
          querier.select(false, TensorBoardParams.series(params, TensorBoardApi.SCALAR));
      SeriesSet steps =
          querier.select(false, TensorBoardParams.series(params, TensorBoardApi.SCALAR_STEP));
      if (values.next() && steps.next()) {
        join(values.at().iterator(null), steps.at().iterator(null), points);
      }
    }
    return ApiJson.success(
        out -> {
          out.writeStartArray();
          for (int i = 0; i < points.size; i++) {
            out.writeStartArray();
            out.writeNumber(points.steps[i]);
            ApiJson.timestamp(out, points.times[i]);
            out.writeString(GoFloats.sampleValue(points.values[i]));
            out.writeEndArray();
          }
          out.writeEndArray();
        });
  }

  /** Pairs samples of equal timestamps; one without a partner (a refused sample) is dropped. */
  private static void join(SampleIterator values, SampleIterator steps, Points points) {
    boolean more = values.next() && steps.next();
    while (more) {
      long t = values.timestamp();
      if (steps.timestamp() < t) {
        more = steps.seek(t);
      } else if (steps.timestamp() > t) {
        more = values.seek(steps.timestamp());
      } else {
        points.add((long) steps.value(), t, values.value());
        more = values.next() && steps.next();
      }
    }
  }

  /** The kept points so far, increasing in step: a stack that a lower step pops. */
  private static final class Points {
    long[] steps = new long[64];
    long[] times = new long[64];
    double[] values = new double[64];
    int size;

    void add(long step, long time, double value) {
      while (size > 0 && steps[size - 1] >= step) {
        size--;
      }
      if (size == steps.length) {
        steps = Arrays.copyOf(steps, size * 2);
        times = Arrays.copyOf(times, size * 2);
        values = Arrays.copyOf(values, size * 2);
      }
      steps[size] = step;
      times[size] = time;
      values[size] = value;
      size++;
    }
  }
}
