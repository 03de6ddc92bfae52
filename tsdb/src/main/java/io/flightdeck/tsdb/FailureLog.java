package io.flightdeck.tsdb;

import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Logs a failure that may repeat thousands of times a second (every write while the disk is full)
 * once per cause, its exception class and message, then at most one summary per cause and interval:
 * {@code 1234 more of the same since 2026-12-07T12:00:00Z}. The summary is written by the next
 * occurrence after the interval. Causes are bounded: past {@code maxCauses} the oldest is dropped,
 * after its pending count is logged. Thread-safe.
 */
public final class FailureLog {
  private final String what;
  private final Consumer<String> warn;
  private final long intervalMillis;
  private final LongSupplier clockMillis;
  private final int maxCauses;
  private final Map<String, Pending> causes = new LinkedHashMap<>();

  /** Occurrences of one cause since its last log line. */
  private static final class Pending {
    long count;
    long sinceMillis;
  }

  /**
   * @param what the operation that failed, starting each line ("writing the WAL")
   * @param warn where lines go (a logger's warn in production)
   */
  public FailureLog(
      String what,
      Consumer<String> warn,
      Duration interval,
      LongSupplier clockMillis,
      int maxCauses) {
    this.what = what;
    this.warn = warn;
    this.intervalMillis = interval.toMillis();
    this.clockMillis = clockMillis;
    this.maxCauses = maxCauses;
  }

  public void record(Throwable failure) {
    String cause = describe(failure);
    long now = clockMillis.getAsLong();
    String line;
    synchronized (this) {
      Pending pending = causes.get(cause);
      if (pending == null) {
        evictOldestIfFull();
        pending = new Pending();
        pending.sinceMillis = now;
        causes.put(cause, pending);
        line =
            what
                + " failed: "
                + cause
                + " (repeats of this cause are counted and logged at most every "
                + intervalMillis / 1000
                + " s)";
      } else {
        pending.count++;
        if (now - pending.sinceMillis < intervalMillis) {
          return;
        }
        line = summary(cause, pending);
        pending.count = 0;
        pending.sinceMillis = now;
      }
    }
    warn.accept(line);
  }

  private void evictOldestIfFull() {
    if (causes.size() < maxCauses) {
      return;
    }
    Iterator<Map.Entry<String, Pending>> oldest = causes.entrySet().iterator();
    Map.Entry<String, Pending> entry = oldest.next();
    if (entry.getValue().count > 0) {
      warn.accept(summary(entry.getKey(), entry.getValue()));
    }
    oldest.remove();
  }

  private String summary(String cause, Pending pending) {
    return what
        + " failed: "
        + pending.count
        + " more of the same since "
        + Instant.ofEpochMilli(pending.sinceMillis)
        + ": "
        + cause;
  }

  /** The exception's class and message, and its cause's, which often holds the OS's words. */
  private static String describe(Throwable failure) {
    String text = failure.getClass().getSimpleName() + ": " + failure.getMessage();
    Throwable cause = failure.getCause();
    if (cause != null && cause.getMessage() != null && !text.contains(cause.getMessage())) {
      text += " (" + cause.getClass().getSimpleName() + ": " + cause.getMessage() + ")";
    }
    return text;
  }
}
