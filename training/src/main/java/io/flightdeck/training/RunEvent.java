package io.flightdeck.training;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Something that happened to a run, for the event lane of the run's charts.
 *
 * @param kind {@code restart}, {@code epoch}, {@code alert}, {@code xid}, {@code gpu_lost}, {@code
 *     demo_incident}, {@code nan} or {@code stall}; from the detectors {@code spike}, {@code
 *     hung_rank}, {@code straggler}, {@code starvation}, {@code staircase}, {@code throughput_drop}
 *     or {@code lr_rewarmup} (training/docs/runs.md)
 * @param timeMs when it happened (the start of an interval)
 * @param endMs the end of an interval (an alert's firing, a stall, an incident), null for a point,
 *     and null too for an interval still open at the end of the data
 * @param step the run's step at {@code timeMs}, null when the step map does not cover it
 * @param host the host concerned, null when none
 * @param gpu the GPU index concerned, null when none
 * @param title a short text for a tooltip
 * @param labels the labels of the series the event was read from
 * @param evidence what was measured, such as the XID code or the stall's length; null when none
 */
public record RunEvent(
    String kind,
    long timeMs,
    Long endMs,
    Double step,
    String host,
    String gpu,
    String title,
    Map<String, String> labels,
    Map<String, Object> evidence) {

  /** This event ending at {@code end} (null: a point in time again). */
  RunEvent withEnd(Long end) {
    return new RunEvent(kind, timeMs, end, step, host, gpu, title, labels, evidence);
  }

  /** The events that overlap {@code [start, end]} (ms); one without an end must begin in it. */
  static List<RunEvent> overlapping(List<RunEvent> events, long startMs, long endMs) {
    List<RunEvent> in = new ArrayList<>();
    for (RunEvent e : events) {
      long last = e.endMs() == null ? e.timeMs() : e.endMs();
      if (e.timeMs() <= endMs && last >= startMs) {
        in.add(e);
      }
    }
    return in;
  }
}
