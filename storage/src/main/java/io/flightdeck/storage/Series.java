package io.flightdeck.storage;

import io.flightdeck.model.Labels;

/** One series: its labels and its samples within the querier's range. */
public interface Series {
  Labels labels();

  /**
   * An iterator over the samples in time order.
   *
   * @param reuse an iterator from an earlier call that the caller no longer needs, or null; an
   *     implementation may reset and return it to avoid allocating on per-series paths
   */
  SampleIterator iterator(SampleIterator reuse);
}
