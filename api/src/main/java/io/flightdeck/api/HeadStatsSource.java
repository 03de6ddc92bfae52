package io.flightdeck.api;

import io.flightdeck.storage.Queryable;

/**
 * The in-memory part of the database, for {@code /api/v1/status/tsdb}: its series are counted per
 * metric name, label and label pair on each request.
 */
public interface HeadStatsSource {
  /** The head alone, without blocks on disk. */
  Queryable head();

  /** Oldest sample time in the head (ms). */
  long minTime();

  /** Newest sample time in the head (ms). */
  long maxTime();

  /** Chunks in the head, open ones included. */
  long chunkCount();
}
