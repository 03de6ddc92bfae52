package io.flightdeck.testkit;

import io.flightdeck.model.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when a test advances it. Thread-safe. */
public final class ManualClock implements Clock {
  private final AtomicLong now;

  public ManualClock(long startMillis) {
    this.now = new AtomicLong(startMillis);
  }

  @Override
  public long millis() {
    return now.get();
  }

  public void set(long millis) {
    now.set(millis);
  }

  public void advance(Duration by) {
    now.addAndGet(by.toMillis());
  }
}
