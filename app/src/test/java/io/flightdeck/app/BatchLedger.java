package io.flightdeck.app;

import io.flightdeck.app.RemoteWriteEncoder.TimeSeries;
import io.flightdeck.app.StoredSamples.Sample;
import io.flightdeck.model.Labels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Remembers every remote-write batch sent and whether the server acknowledged it (204), then checks
 * stored data against it: acknowledged batches complete and bit-exact, unacknowledged ones all or
 * nothing (a batch is one commit), no sample twice, nothing that was never sent. Thread-safe.
 */
final class BatchLedger {
  /** Problems listed in a failure message; the rest are only counted. */
  private static final int SHOWN = 20;

  private record Batch(List<TimeSeries> series, boolean acknowledged) {}

  /** Keeps the first problems for the message and counts the rest. */
  private static final class Problems {
    final List<String> shown = new ArrayList<>();
    long count;

    void add(String problem) {
      if (shown.size() < SHOWN) {
        shown.add(problem);
      }
      count++;
    }
  }

  private final List<Batch> batches = new ArrayList<>();

  synchronized void record(List<TimeSeries> series, boolean acknowledged) {
    batches.add(new Batch(series, acknowledged));
  }

  synchronized long acknowledged() {
    return batches.stream().filter(Batch::acknowledged).count();
  }

  synchronized long unacknowledged() {
    return batches.size() - acknowledged();
  }

  /**
   * Checks {@code stored} (every series the batches could have written, and only those) against the
   * ledger; returns how many unacknowledged batches were found stored, for the test's report.
   */
  synchronized int verify(Map<Labels, List<Sample>> stored) {
    Problems problems = new Problems();
    Map<Labels, Map<Long, Double>> unmatched = new HashMap<>();
    stored.forEach(
        (labels, samples) -> {
          Map<Long, Double> byTime = new HashMap<>();
          long previous = Long.MIN_VALUE;
          for (Sample s : samples) {
            if (s.timestamp() <= previous) {
              problems.add(
                  labels
                      + ": timestamp "
                      + s.timestamp()
                      + " follows "
                      + previous
                      + " (duplicate or out of order)");
            }
            previous = s.timestamp();
            byTime.put(s.timestamp(), s.value());
          }
          unmatched.put(labels, byTime);
        });
    int unacknowledgedStored = 0;
    for (int i = 0; i < batches.size(); i++) {
      Batch batch = batches.get(i);
      int total = 0;
      int present = 0;
      String firstMissing = null;
      for (TimeSeries ts : batch.series()) {
        Map<Long, Double> byTime = unmatched.get(ts.labels());
        for (int j = 0; j < ts.timestamps().length; j++) {
          total++;
          Double got = byTime == null ? null : byTime.remove(ts.timestamps()[j]);
          if (got == null) {
            if (firstMissing == null) {
              firstMissing = ts.labels() + " @ " + ts.timestamps()[j];
            }
            continue;
          }
          present++;
          if (Double.doubleToRawLongBits(got) != Double.doubleToRawLongBits(ts.values()[j])) {
            problems.add(
                "batch "
                    + i
                    + ": "
                    + ts.labels()
                    + " @ "
                    + ts.timestamps()[j]
                    + " holds "
                    + got
                    + ", sent "
                    + ts.values()[j]);
          }
        }
      }
      if (batch.acknowledged() && present != total) {
        problems.add(
            "acknowledged batch "
                + i
                + ": "
                + (total - present)
                + " of "
                + total
                + " samples missing, first "
                + firstMissing);
      } else if (!batch.acknowledged() && present > 0) {
        unacknowledgedStored++;
        if (present != total) {
          problems.add(
              "unacknowledged batch "
                  + i
                  + " partly stored: "
                  + present
                  + " of "
                  + total
                  + " samples, first missing "
                  + firstMissing);
        }
      }
    }
    unmatched.forEach(
        (labels, byTime) ->
            byTime.forEach(
                (t, v) -> problems.add("never sent: " + labels + " @ " + t + " = " + v)));
    if (problems.count > 0) {
      throw new AssertionError(
          problems.count
              + " problems in stored data, the first "
              + problems.shown.size()
              + ":\n  "
              + String.join("\n  ", problems.shown));
    }
    return unacknowledgedStored;
  }
}
