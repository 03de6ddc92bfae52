package io.flightdeck.remote;

import io.flightdeck.exposition.ExpositionParseException;
import io.flightdeck.model.Clock;
import io.flightdeck.model.Labels;
import io.flightdeck.storage.Appendable;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Pushgateway-compatible ingestion behind {@code PUT|POST|DELETE /metrics/job/<job>{/<l>/<v>}},
 * independent of any HTTP library. Pushed samples are stored directly, with the grouping labels
 * added (overriding body labels of the same name) and the receive time as timestamp unless the line
 * has one. PUT replaces the group: its series missing from the new push get a stale marker; POST
 * adds to the group; DELETE marks every series of the group stale.
 *
 * <p>The series set of each group is kept in memory only, so a restart forgets which series a later
 * PUT or DELETE has to end. Requests are serialized, which keeps group sets and storage in step;
 * pushes are rare compared with scrapes. Thread-safe.
 */
public final class PushReceiver {
  private final Appendable storage;
  private final Clock clock;
  private final Map<Labels, Set<Labels>> groups = new HashMap<>();

  public PushReceiver(Appendable storage, Clock clock) {
    this.storage = storage;
    this.clock = clock;
  }

  /**
   * A PUT ({@code replace}) or POST of a text-format body.
   *
   * @param groupingPath the raw (still percent-encoded) path after {@code /metrics/}
   * @return 200 when stored, 400 for a bad path or body (nothing stored), as {@link TextBatch}
   *     otherwise
   */
  public synchronized IngestResponse push(String groupingPath, byte[] body, boolean replace) {
    Map<String, String> grouping;
    try {
      grouping = GroupingPath.parse(groupingPath);
    } catch (IllegalArgumentException e) {
      return new IngestResponse(400, e.getMessage());
    }
    long now = clock.millis();
    TextBatch batch;
    try {
      batch = TextBatch.parse(body, grouping, now);
    } catch (ExpositionParseException e) {
      return new IngestResponse(400, "text format parsing error: " + e.getMessage());
    }
    Labels group = Labels.fromMap(grouping);
    Set<Labels> pushed = batch.series();
    Set<Labels> previous = groups.getOrDefault(group, Set.of());
    Set<Labels> ended = new LinkedHashSet<>();
    if (replace) {
      ended.addAll(previous);
      ended.removeAll(pushed);
    }
    IngestResponse response = batch.store(storage, ended, now, 200);
    if (response.status() != 503) {
      Set<Labels> next = new LinkedHashSet<>(pushed);
      if (!replace) {
        next.addAll(previous);
      }
      groups.put(group, next);
    }
    return response;
  }

  /** DELETE: ends every series of the group; 202 as Pushgateway, also for an unknown group. */
  public synchronized IngestResponse delete(String groupingPath) {
    Labels group;
    try {
      group = Labels.fromMap(GroupingPath.parse(groupingPath));
    } catch (IllegalArgumentException e) {
      return new IngestResponse(400, e.getMessage());
    }
    Set<Labels> series = groups.getOrDefault(group, Set.of());
    long now = clock.millis();
    IngestResponse response = TextBatch.empty().store(storage, series, now, 202);
    if (response.status() != 503) {
      groups.remove(group);
    }
    return response;
  }
}
