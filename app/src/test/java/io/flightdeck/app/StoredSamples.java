package io.flightdeck.app;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.SeriesSet;
import io.flightdeck.tsdb.Tsdb;
import io.flightdeck.tsdb.TsdbOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads what a stopped server left in its data directory through the embedded database's own API,
 * as the next start would see it (blocks plus WAL replay).
 */
final class StoredSamples {
  record Sample(long timestamp, double value) {}

  private StoredSamples() {}

  /** Every sample of the matching series, in the order the querier returns them. */
  static Map<Labels, List<Sample>> read(Path dataDir, Matcher... matchers) throws IOException {
    Map<Labels, List<Sample>> result = new LinkedHashMap<>();
    try (Tsdb tsdb = Tsdb.open(TsdbOptions.defaults(dataDir));
        Querier querier = tsdb.querier(Long.MIN_VALUE, Long.MAX_VALUE)) {
      SeriesSet set = querier.select(true, matchers);
      SampleIterator it = null;
      while (set.next()) {
        List<Sample> samples = new ArrayList<>();
        it = set.at().iterator(it);
        while (it.next()) {
          samples.add(new Sample(it.timestamp(), it.value()));
        }
        result.put(set.at().labels(), samples);
      }
    }
    return result;
  }
}
