package io.flightdeck.app;

import io.flightdeck.model.Clock;
import io.flightdeck.storage.Appendable;
import io.flightdeck.tensorboard.HParamsStore;
import io.flightdeck.tensorboard.ImageStore;
import io.flightdeck.tensorboard.LogdirWatcher;
import io.flightdeck.tensorboard.LogdirWatcherOptions;
import io.flightdeck.tensorboard.LogdirWatcherStats;
import io.flightdeck.tensorboard.TextStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's live TensorBoard logdirs ({@code --tensorboard.logdir}): one watcher and one set of
 * text, image and hparams stores per logdir, started after storage and closed before it.
 */
final class TensorBoardWatchers implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TensorBoardWatchers.class);

  private final Map<String, LogdirWatcher> watchers = new LinkedHashMap<>();
  private final Map<String, LogdirStores> stores = new LinkedHashMap<>();

  /** Opens the stores and starts watching; a logdir's path is used exactly as given. */
  TensorBoardWatchers(
      List<String> logdirs, Duration pollInterval, Appendable storage, Path dataDir) {
    try {
      for (String logdir : logdirs) {
        if (stores.containsKey(logdir)) {
          continue; // one set of stores and one watcher per logdir, however often it is named
        }
        LogdirStores opened =
            LogdirStores.open(
                dataDir, logdir, warning -> log.warn("tensorboard {}: {}", logdir, warning));
        stores.put(logdir, opened);
        LogdirWatcher watcher =
            new LogdirWatcher(
                LogdirWatcherOptions.defaults(logdir).withPollInterval(pollInterval),
                storage,
                opened.sideStores(),
                Clock.system(),
                problem -> log.warn("tensorboard {}: {}", logdir, problem));
        watchers.put(logdir, watcher);
        watcher.start();
        log.info("watching TensorBoard logdir {} every {} ms", logdir, pollInterval.toMillis());
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /** Counters summed over every logdir. */
  LogdirWatcherStats stats() {
    long runs = 0;
    long files = 0;
    long records = 0;
    long points = 0;
    long skipped = 0;
    long errors = 0;
    long lastPoll = 0;
    for (LogdirWatcher watcher : watchers.values()) {
      LogdirWatcherStats s = watcher.stats();
      runs += s.runs();
      files += s.files();
      records += s.records();
      points += s.points();
      skipped += s.skipped();
      errors += s.errors();
      lastPoll = Math.max(lastPoll, s.lastPollMillis());
    }
    return new LogdirWatcherStats(runs, files, records, points, skipped, errors, lastPoll);
  }

  /** The watcher of each logdir, by the logdir as given: its counters and files' progress. */
  Map<String, LogdirWatcher> watchers() {
    return Collections.unmodifiableMap(watchers);
  }

  /** The text store of each logdir, by the logdir as given. */
  Map<String, TextStore> textStores() {
    return each(s -> s.texts);
  }

  /** The image store of each logdir, by the logdir as given. */
  Map<String, ImageStore> imageStores() {
    return each(s -> s.images);
  }

  /** The hparams store of each logdir, by the logdir as given. */
  Map<String, HParamsStore> hparamsStores() {
    return each(s -> s.hparams);
  }

  private <T> Map<String, T> each(Function<LogdirStores, T> store) {
    Map<String, T> out = new LinkedHashMap<>();
    stores.forEach((logdir, s) -> out.put(logdir, store.apply(s)));
    return Collections.unmodifiableMap(out);
  }

  /** Stops the watchers, then closes their stores. */
  @Override
  public void close() {
    watchers.values().forEach(LogdirWatcher::close);
    for (Map.Entry<String, LogdirStores> s : stores.entrySet()) {
      try {
        s.getValue().close();
      } catch (RuntimeException e) {
        log.error("closing the tensorboard stores of {} failed: {}", s.getKey(), e.toString());
      }
    }
  }
}
