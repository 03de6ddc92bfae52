package io.flightdeck.training;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** What detectors share: merging one incident seen on several series into one event. */
final class Detections {
  private Detections() {}

  /**
   * Events of one kind that begin within {@code withinMs} of an earlier one become that earlier
   * event, with {@code series_count} in its evidence; host and GPU stay only when all agree.
   */
  static List<RunEvent> merge(List<RunEvent> events, long withinMs) {
    List<RunEvent> sorted = new ArrayList<>(events);
    sorted.sort(Comparator.comparingLong(RunEvent::timeMs));
    List<RunEvent> merged = new ArrayList<>();
    List<Integer> counts = new ArrayList<>();
    for (RunEvent event : sorted) {
      int last = merged.size() - 1;
      if (last >= 0 && event.timeMs() - merged.get(last).timeMs() <= withinMs) {
        RunEvent first = merged.get(last);
        merged.set(
            last,
            new RunEvent(
                first.kind(),
                first.timeMs(),
                first.endMs(),
                first.step(),
                Objects.equals(first.host(), event.host()) ? first.host() : null,
                Objects.equals(first.gpu(), event.gpu()) ? first.gpu() : null,
                first.title(),
                first.labels(),
                first.evidence()));
        counts.set(last, counts.get(last) + 1);
      } else {
        merged.add(event);
        counts.add(1);
      }
    }
    for (int i = 0; i < merged.size(); i++) {
      RunEvent e = merged.get(i);
      Map<String, Object> evidence = new LinkedHashMap<>(e.evidence());
      evidence.put("series_count", counts.get(i));
      merged.set(
          i,
          new RunEvent(
              e.kind(),
              e.timeMs(),
              e.endMs(),
              e.step(),
              e.host(),
              e.gpu(),
              e.title(),
              e.labels(),
              evidence));
    }
    return merged;
  }
}
