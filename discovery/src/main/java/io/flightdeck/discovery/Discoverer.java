package io.flightdeck.discovery;

import java.util.List;

/**
 * One source of targets. Contract: {@link #start} is called once; the listener then receives the
 * complete current list of groups at least once (an empty list when nothing was found or the first
 * read failed) and again whenever it changes, always from one thread at a time. A failed refresh
 * keeps the last good groups and is reported by {@link #lastError()}. {@link #close()} stops all
 * work, may be called more than once, and no update is delivered after it returns. Thread-safe.
 */
public interface Discoverer extends AutoCloseable {

  /** Receives every group of one discoverer each time they change. */
  @FunctionalInterface
  interface Listener {
    void groups(List<TargetGroup> groups);
  }

  void start(Listener listener);

  /** Why the latest refresh failed, or the empty string when it succeeded. */
  String lastError();

  @Override
  void close();
}
