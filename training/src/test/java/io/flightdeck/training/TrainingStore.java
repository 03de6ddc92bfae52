package io.flightdeck.training;

import io.flightdeck.model.Labels;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.storage.Appender;
import io.flightdeck.tsdb.Tsdb;
import io.flightdeck.tsdb.TsdbOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.LongToDoubleFunction;

/**
 * A real TSDB in a temp dir for catalog tests, with helpers that write a series sampled at a fixed
 * interval from a function of the seconds since {@link #T0}.
 */
final class TrainingStore implements AutoCloseable {
  /** The scenario's origin, Unix ms. */
  static final long T0 = 1_765_100_000_000L;

  private static final long FAR_FUTURE_MS = Long.MAX_VALUE / 4;

  final Tsdb tsdb;

  TrainingStore(Path dir) {
    try {
      tsdb =
          Tsdb.open(
              TsdbOptions.defaults(dir)
                  .withRetention(Duration.ZERO)
                  .withClock(() -> FAR_FUTURE_MS));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Writes {@code value(secondsSinceT0)} every {@code everySeconds} from {@code fromSeconds} to
   * {@code toSeconds} inclusive; a NaN result writes nothing at that instant.
   */
  TrainingStore series(
      Labels labels,
      long fromSeconds,
      long toSeconds,
      long everySeconds,
      LongToDoubleFunction value) {
    Appender app = tsdb.appender();
    long ref = 0;
    for (long s = fromSeconds; s <= toSeconds; s += everySeconds) {
      double v = value.applyAsDouble(s);
      if (!Double.isNaN(v) || Double.doubleToRawLongBits(v) == StaleMarker.BITS) {
        ref = app.append(ref, labels, T0 + s * 1000, v);
      }
    }
    app.commit();
    return this;
  }

  /** Writes one sample at {@code seconds} after {@link #T0}. */
  TrainingStore sample(Labels labels, long seconds, double value) {
    Appender app = tsdb.appender();
    app.append(0, labels, T0 + seconds * 1000, value);
    app.commit();
    return this;
  }

  static Labels labels(String... pairs) {
    return Labels.of(pairs);
  }

  @Override
  public void close() throws IOException {
    tsdb.close();
  }
}
