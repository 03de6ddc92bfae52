package io.flightdeck.remote;

import io.flightdeck.exposition.ExpositionParseException;
import io.flightdeck.model.Clock;
import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.MetricType;
import io.flightdeck.storage.Appendable;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pushgateway-compatible ingestion behind {@code PUT|POST|DELETE /metrics/job/<job>{/<l>/<v>}},
 * independent of any HTTP library, behaving as a Pushgateway that Prometheus scrapes: each group's
 * last values, with {@code push_time_seconds} and {@code push_failure_time_seconds}, are written
 * when pushed and again at every {@link #reemit()}, so that they stay visible until replaced or
 * deleted. PUT replaces the group (series it no longer has get a stale marker); POST replaces, as
 * Pushgateway does, only the metric families it brings (each with all its series, wherever in the
 * body they are) and keeps the group's others; DELETE removes the group and stale-marks its series.
 *
 * <p>Every change is written to storage and then made durable in the {@link PushGroupStore} before
 * it is answered with success, so that after a restart re-emission resumes and a later PUT or
 * DELETE ends series pushed before it. Requests are serialized, which keeps the groups, the store
 * and storage in step; pushes are rare compared with scrapes. Thread-safe.
 */
public final class PushReceiver {
  private static final Logger log = LoggerFactory.getLogger(PushReceiver.class);
  static final String PUSH_TIME = "push_time_seconds";
  static final String PUSH_FAILURE_TIME = "push_failure_time_seconds";
  private static final Map<String, MetricMetadata> PUSH_TIME_METADATA =
      Map.of(
          PUSH_TIME,
          new MetricMetadata(
              MetricType.GAUGE,
              "Last Unix time when changing this group in the Pushgateway succeeded.",
              ""),
          PUSH_FAILURE_TIME,
          new MetricMetadata(
              MetricType.GAUGE,
              "Last Unix time when changing this group in the Pushgateway failed.",
              ""));

  private final Appendable storage;
  private final Clock clock;
  private final PushGroupStore store;
  private final Map<Labels, PushGroup> groups = new LinkedHashMap<>();
  // Families of groups loaded at start reach storage's metadata with the first re-emission.
  private boolean metadataWritten;
  private boolean reemitFailing;

  /** A receiver that starts with the groups {@code store} loaded. */
  public PushReceiver(Appendable storage, Clock clock, PushGroupStore store) {
    this.storage = storage;
    this.clock = clock;
    this.store = store;
    for (PushGroup group : store.loaded()) {
      groups.put(group.grouping(), group);
    }
  }

  /**
   * A PUT ({@code replace}) or POST of a text-format body.
   *
   * @param groupingPath the raw (still percent-encoded) path after {@code /metrics/}
   * @return 200 when stored and durable; 400 for a bad path or body (nothing stored) or for samples
   *     with timestamps (only the group's failure time is recorded); 503 when storage or the push
   *     store cannot take the change; else as {@link TextBatch#store}
   */
  public synchronized IngestResponse push(String groupingPath, byte[] body, boolean replace) {
    Map<String, String> grouping;
    try {
      grouping = GroupingPath.parse(groupingPath);
    } catch (IllegalArgumentException e) {
      return new IngestResponse(400, e.getMessage());
    }
    Labels key = Labels.fromMap(grouping);
    long now = clock.millis();
    PushBody pushed;
    try {
      pushed = PushBody.parse(body, grouping);
    } catch (ExpositionParseException e) {
      return new IngestResponse(400, "text format parsing error: " + e.getMessage());
    } catch (InvalidPushException e) {
      return recordFailure(
          key,
          now,
          "pushed metrics are invalid or inconsistent with existing metrics: " + e.getMessage());
    }
    PushGroup previous = groups.get(key);
    Map<Labels, Double> series = new LinkedHashMap<>();
    Map<String, MetricMetadata> metadata = new LinkedHashMap<>();
    if (!replace && previous != null) {
      previous
          .series()
          .forEach(
              (labels, value) -> {
                if (!pushed.families().contains(previous.familyOf(labels))) {
                  series.put(labels, value);
                }
              });
      previous
          .metadata()
          .forEach(
              (family, meta) -> {
                if (!pushed.families().contains(family)) {
                  metadata.put(family, meta);
                }
              });
    }
    series.putAll(pushed.series());
    metadata.putAll(pushed.metadata());
    long failureTime = previous == null ? PushGroup.NEVER : previous.pushFailureTimeMillis();
    return change(key, previous, new PushGroup(key, series, metadata, now, failureTime), now, 200);
  }

  /** DELETE: ends every series of the group; 202 as Pushgateway, also for an unknown group. */
  public synchronized IngestResponse delete(String groupingPath) {
    Labels key;
    try {
      key = Labels.fromMap(GroupingPath.parse(groupingPath));
    } catch (IllegalArgumentException e) {
      return new IngestResponse(400, e.getMessage());
    }
    PushGroup previous = groups.get(key);
    if (previous == null) {
      return new IngestResponse(202, "");
    }
    return change(key, previous, null, clock.millis(), 202);
  }

  /**
   * Writes every group's current samples at the clock's time, as a scrape of Pushgateway would.
   * Called at a fixed interval by whoever owns the threads; failures are logged when they start and
   * when they end, not at every call.
   */
  public synchronized void reemit() {
    if (groups.isEmpty()) {
      return;
    }
    Map<Labels, Double> samples = new LinkedHashMap<>();
    Map<String, MetricMetadata> metadata = new HashMap<>();
    for (PushGroup group : groups.values()) {
      samples.putAll(samples(group));
      if (!metadataWritten) {
        metadata.putAll(metadata(group));
      }
    }
    long now = clock.millis();
    IngestResponse response =
        TextBatch.of(samples, now, metadata).store(storage, List.of(), now, 200);
    boolean failed = response.status() != 200;
    if (failed && !reemitFailing) {
      log.warn(
          "re-emitting {} pushed groups failed ({}: {}); retrying every interval",
          groups.size(),
          response.status(),
          response.body());
    } else if (!failed && reemitFailing) {
      log.info("re-emitting pushed groups works again");
    }
    reemitFailing = failed;
    metadataWritten |= response.status() != 503;
  }

  /** Pushgateway records a refused push in the group's failure time, creating the group if new. */
  private IngestResponse recordFailure(Labels key, long now, String message) {
    PushGroup previous = groups.get(key);
    PushGroup next =
        previous == null ? PushGroup.failedOnly(key, now) : previous.withFailureAt(now);
    IngestResponse recorded = change(key, previous, next, now, 400);
    return recorded.status() == 503 ? recorded : new IngestResponse(400, message);
  }

  /**
   * Moves a group from {@code previous} to {@code next} (null: deleted): writes the next samples
   * and stale markers for the series that end, then makes the new state durable. Nothing changes in
   * memory unless both succeeded.
   */
  private IngestResponse change(
      Labels key, PushGroup previous, PushGroup next, long now, int successStatus) {
    Map<Labels, Double> nextSamples = next == null ? Map.of() : samples(next);
    Set<Labels> ended = new LinkedHashSet<>();
    if (previous != null) {
      ended.addAll(samples(previous).keySet());
      ended.removeAll(nextSamples.keySet());
    }
    TextBatch batch =
        next == null ? TextBatch.empty() : TextBatch.of(nextSamples, now, metadata(next));
    IngestResponse response = batch.store(storage, ended, now, successStatus);
    if (response.status() == 503) {
      return response;
    }
    Map<Labels, PushGroup> updated = new LinkedHashMap<>(groups);
    if (next == null) {
      updated.remove(key);
    } else {
      updated.put(key, next);
    }
    try {
      store.replaceAll(updated.values());
    } catch (IOException e) {
      log.warn("push group store cannot be written: {}", e.toString());
      return new IngestResponse(503, "push group store cannot be written: " + e);
    }
    groups.clear();
    groups.putAll(updated);
    return response;
  }

  /** The group's series as a scrape of Pushgateway shows them. */
  private static Map<Labels, Double> samples(PushGroup group) {
    Map<Labels, Double> samples = new LinkedHashMap<>(group.series());
    if (group.pushTimeMillis() != PushGroup.NEVER) {
      samples.put(pushTimeSeries(group, PUSH_TIME), group.pushTimeMillis() / 1000.0);
    }
    samples.put(pushTimeSeries(group, PUSH_FAILURE_TIME), group.pushFailureTimeMillis() / 1000.0);
    return samples;
  }

  private static Labels pushTimeSeries(PushGroup group, String name) {
    return group.grouping().toBuilder().set(Labels.METRIC_NAME, name).build();
  }

  private static Map<String, MetricMetadata> metadata(PushGroup group) {
    Map<String, MetricMetadata> metadata = new HashMap<>(group.metadata());
    metadata.putAll(PUSH_TIME_METADATA);
    return metadata;
  }
}
