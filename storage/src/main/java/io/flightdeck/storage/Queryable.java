package io.flightdeck.storage;

/** Anything that answers selections over a time range. */
public interface Queryable {
  /**
   * A querier over samples with {@code mint <= t <= maxt}. The querier sees a consistent snapshot:
   * every batch committed before this call and none committed after. Close it to release resources.
   */
  Querier querier(long mint, long maxt);
}
