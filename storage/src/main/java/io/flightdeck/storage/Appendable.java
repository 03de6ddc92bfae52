package io.flightdeck.storage;

/** Anything that accepts samples: the embedded TSDB, a remote engine, a fanout of both. */
public interface Appendable {
  /** A new appender; each appender belongs to one thread and ends in commit or rollback. */
  Appender appender();
}
