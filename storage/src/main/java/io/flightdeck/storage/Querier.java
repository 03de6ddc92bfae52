package io.flightdeck.storage;

import io.flightdeck.model.Matcher;
import java.util.List;

/**
 * Reads one snapshot of the store over a fixed time range. Thread-safe for reading; must be closed.
 * Series sets and iterators it returns are valid until the querier is closed.
 */
public interface Querier extends AutoCloseable {
  /**
   * Series whose labels satisfy every matcher and that have samples in the querier's range.
   *
   * @param sorted whether series must come in label order (needed for merging)
   */
  SeriesSet select(boolean sorted, Matcher... matchers);

  /** Label names of the series that match (all series when no matchers), sorted. */
  List<String> labelNames(Matcher... matchers);

  /** Values of one label among the series that match, sorted, without the empty value. */
  List<String> labelValues(String name, Matcher... matchers);

  @Override
  void close();
}
