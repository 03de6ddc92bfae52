package io.flightdeck.storage;

import java.util.List;

/** A cursor over series. Not thread-safe. */
public interface SeriesSet {
  /** Advances to the next series; false at the end. */
  boolean next();

  /** The current series; valid after {@code next()} returned true. */
  Series at();

  /** Non-fatal problems met while selecting (a block that could not be read, say). */
  default List<String> warnings() {
    return List.of();
  }

  SeriesSet EMPTY =
      new SeriesSet() {
        @Override
        public boolean next() {
          return false;
        }

        @Override
        public Series at() {
          throw new IllegalStateException("empty series set");
        }
      };
}
