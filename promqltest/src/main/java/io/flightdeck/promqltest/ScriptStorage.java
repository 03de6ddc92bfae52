package io.flightdeck.promqltest;

import io.flightdeck.model.Labels;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.Queryable;
import io.flightdeck.storage.SampleRejectedException;
import io.flightdeck.tsdb.Tsdb;
import io.flightdeck.tsdb.TsdbOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The real embedded database a script runs against, in a temporary directory that {@link #close()}
 * deletes. {@link #clear()} replaces it with an empty one. Not thread-safe.
 */
final class ScriptStorage implements AutoCloseable {
  /**
   * A fixed clock ahead of any script time, so that runs do not depend on the wall clock and no
   * sample is refused as too far in the future; with no retention, none is refused as too old
   * either (scripts write at the Unix epoch).
   */
  private static final long FAR_FUTURE_MS = Long.MAX_VALUE / 4;

  private final Path root;
  private final UnsupportedSeries unsupported = new UnsupportedSeries();
  private Tsdb tsdb;
  private int generation;

  ScriptStorage() {
    try {
      root = Files.createTempDirectory("promqltest");
      tsdb = open();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Queryable queryable() {
    return tsdb;
  }

  /** The series loaded since the last clear that the database does not hold as loaded. */
  UnsupportedSeries unsupported() {
    return unsupported;
  }

  void clear() {
    try {
      tsdb.close();
      deleteTree(root.resolve("db" + (generation - 1)));
      tsdb = open();
      unsupported.clear();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Appends the float series of a load block in one commit. Series with histogram values are left
   * out (and remembered), as are the native histograms {@code load_with_nhcb} would add; series
   * with start timestamps are stored without them (and remembered).
   *
   * @return the problems: rejected samples; empty if everything was stored
   */
  List<String> load(LoadCommand load) {
    List<String> problems = new ArrayList<>();
    Appender appender = tsdb.appender();
    for (Map.Entry<Labels, List<Sample>> series : load.samplesByLabels().entrySet()) {
      if (series.getValue().stream().anyMatch(s -> s.value() instanceof SampleValue.Histogram)) {
        unsupported.add(series.getKey(), UnsupportedSeries.HISTOGRAM);
        continue;
      }
      long ref = 0;
      for (Sample sample : series.getValue()) {
        double value = ((SampleValue.Float) sample.value()).value();
        try {
          ref = appender.append(ref, series.getKey(), sample.timestampMs(), value);
        } catch (SampleRejectedException e) {
          problems.add(e.getMessage());
        }
      }
    }
    appender.commit();
    if (load.withNhcb()) {
      unsupported.addConvertedClassicHistograms(load.samplesByLabels().keySet());
    }
    load.startTimestamped()
        .forEach(labels -> unsupported.add(labels, UnsupportedSeries.START_TIMESTAMPS));
    return problems;
  }

  private Tsdb open() throws IOException {
    Path dir = root.resolve("db" + generation++);
    TsdbOptions options =
        TsdbOptions.defaults(dir).withRetention(Duration.ZERO).withClock(() -> FAR_FUTURE_MS);
    return Tsdb.open(options);
  }

  @Override
  public void close() {
    try {
      tsdb.close();
      deleteTree(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
