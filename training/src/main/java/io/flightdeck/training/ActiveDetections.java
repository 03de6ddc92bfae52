package io.flightdeck.training;

import io.flightdeck.model.Labels;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which detector events of a run are going on now, as the label sets of {@code
 * flightdeck_run_detection} series: an interval that is still open (or ended within {@code slackMs}
 * of the data's end, since an ongoing stall ends at its last sample), and a point event (a spike, a
 * NaN, a re-warm-up, a staircase) for {@code holdMs} after the loop first saw it, so that it
 * outlasts a rule's evaluation and the notifier's group wait. A point event already there when the
 * loop first looked at the run counts as seen when it became detectable (its onset, or a
 * staircase's confirmation), so a server's start does not alert on incidents long past. Not
 * thread-safe: one loop calls it.
 */
final class ActiveDetections {
  /** The detectors' kinds (RunEvent); restarts, epochs, alerts, XIDs and lost GPUs are not. */
  static final Set<String> KINDS =
      Set.of(
          "nan",
          "spike",
          "stall",
          "hung_rank",
          "straggler",
          "starvation",
          "staircase",
          "throughput_drop",
          "lr_rewarmup");

  /** Kinds whose events are moments: they have no end to wait for. */
  private static final Set<String> POINT_KINDS = Set.of("nan", "spike", "staircase", "lr_rewarmup");

  private final String metric;
  private final String runLabel;
  private final long holdMs;
  private final long slackMs;

  /** When each point event was first seen, per run; pruned to the events still in the window. */
  private final Map<String, Map<EventKey, Long>> firstSeen = new HashMap<>();

  /**
   * The title each active series had at the last pass, per run, by its other labels: a detection
   * that goes on keeps its first title (a baseline re-read as the window moves must not make it a
   * new series, and so a new alert and notification).
   */
  private final Map<String, Map<Labels, String>> titles = new HashMap<>();

  private record EventKey(String kind, long timeMs, String host, String gpu, String rank) {
    static EventKey of(RunEvent e) {
      return new EventKey(e.kind(), e.timeMs(), e.host(), e.gpu(), e.labels().get("rank"));
    }
  }

  ActiveDetections(String metric, String runLabel, long holdMs, long slackMs) {
    this.metric = metric;
    this.runLabel = runLabel;
    this.holdMs = holdMs;
    this.slackMs = slackMs;
  }

  /**
   * The series of one run's active detections at {@code nowMs}, given its events over the loop's
   * window and the newest sample time of its data. A point event before {@code settledFromMs} is
   * never new: near the window's start the detectors lack the past that found it first, so what
   * they report there is an incident already seen (or one seen differently, as a re-warm-up whose
   * low moved out of the window).
   */
  Set<Labels> of(
      String run, List<RunEvent> events, long settledFromMs, long dataEndMs, long nowMs) {
    boolean firstLook = !firstSeen.containsKey(run);
    Map<EventKey, Long> seen = firstSeen.computeIfAbsent(run, r -> new HashMap<>());
    Set<EventKey> present = new HashSet<>();
    Set<Labels> active = new LinkedHashSet<>();
    for (RunEvent event : events) {
      if (!KINDS.contains(event.kind())) {
        continue;
      }
      boolean on;
      if (POINT_KINDS.contains(event.kind())) {
        EventKey key = EventKey.of(event);
        present.add(key);
        long found = detectableFrom(event);
        boolean old = firstLook || found < settledFromMs;
        long since = seen.computeIfAbsent(key, k -> old ? found : nowMs);
        on = nowMs - since <= holdMs;
      } else {
        on = event.endMs() == null || event.endMs() >= dataEndMs - slackMs;
      }
      if (on) {
        active.add(labels(run, event));
      }
    }
    seen.keySet().retainAll(present);
    Map<Labels, String> before = titles.getOrDefault(run, Map.of());
    Map<Labels, String> now = new HashMap<>();
    Set<Labels> kept = new LinkedHashSet<>();
    for (Labels series : active) {
      Labels identity = series.toBuilder().remove("title").build();
      String title = before.getOrDefault(identity, series.get("title"));
      now.putIfAbsent(identity, title);
      kept.add(title.isEmpty() ? identity : identity.toBuilder().set("title", title).build());
    }
    titles.put(run, now);
    return kept;
  }

  /**
   * When a point event could first be seen: its {@code confirmed_at} evidence (unix seconds) where
   * it has one (a staircase is dated at its first step and confirmed epochs later), else its time.
   */
  private static long detectableFrom(RunEvent event) {
    return event.evidence().get("confirmed_at") instanceof Number confirmed
        ? Math.round(confirmed.doubleValue() * 1000)
        : event.timeMs();
  }

  /** Forgets a run that is no longer evaluated. */
  void forget(String run) {
    firstSeen.remove(run);
    titles.remove(run);
  }

  /**
   * The series' labels: run, kind, Hostname (as dcgm-exporter names it), GPU and rank where known,
   * and the event's title (its evidence in words) for the alert's text. The values that change
   * while an event lasts (a stall's length) are left out, so one event is one series.
   */
  private Labels labels(String run, RunEvent event) {
    Labels.Builder b = Labels.builder();
    b.set(Labels.METRIC_NAME, metric);
    b.set(runLabel, run);
    b.set("kind", event.kind());
    set(b, "Hostname", event.host());
    set(b, "gpu", event.gpu());
    set(b, "rank", event.labels().get("rank"));
    set(b, "title", event.kind().equals("stall") ? "stalled" : event.title());
    return b.build();
  }

  private static void set(Labels.Builder b, String name, String value) {
    if (value != null && !value.isEmpty()) {
      b.set(name, value);
    }
  }
}
