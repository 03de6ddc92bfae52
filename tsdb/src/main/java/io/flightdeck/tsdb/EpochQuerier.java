package io.flightdeck.tsdb;

import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.SeriesSet;
import java.util.List;

/** A querier that reports its closing to {@link ReaderEpochs}, once. */
final class EpochQuerier implements Querier {
  private final Querier delegate;
  private final Runnable onClose;
  private boolean closed;

  EpochQuerier(Querier delegate, Runnable onClose) {
    this.delegate = delegate;
    this.onClose = onClose;
  }

  @Override
  public SeriesSet select(boolean sorted, Matcher... matchers) {
    return delegate.select(sorted, matchers);
  }

  @Override
  public List<String> labelNames(Matcher... matchers) {
    return delegate.labelNames(matchers);
  }

  @Override
  public List<String> labelValues(String name, Matcher... matchers) {
    return delegate.labelValues(name, matchers);
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      delegate.close();
    } finally {
      onClose.run();
    }
  }
}
