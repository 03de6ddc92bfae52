package io.flightdeck.app;

import io.flightdeck.collector.host.MetricFamily;
import io.flightdeck.model.Labels;
import io.flightdeck.remote.RemoteWriteSender;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleSupplier;
import java.util.function.ToDoubleFunction;

/**
 * The agent's own metrics as metric families, rendered with the collected ones: its collections
 * and, per remote-write endpoint (labels {@code remote_name} and {@code url}, as Prometheus's
 * {@code prometheus_remote_storage_*}), the queue and what became of the samples. Built per scrape
 * without client_java's registry, whose snapshots and writer cost about as much per scrape as
 * rendering the whole collection (bench/README.md, agent section). Thread-safe.
 */
final class AgentMetrics {
  private final DoubleSupplier collections;
  private final DoubleSupplier collectionFailures;
  private final DoubleSupplier lastDurationSeconds;
  private final List<RemoteWriteSender> senders;

  /** Each endpoint's {@code remote_name} and {@code url} labels, built once. */
  private final List<Labels> senderLabels;

  private final AgentProcessMetrics process = new AgentProcessMetrics();

  AgentMetrics(
      DoubleSupplier collections,
      DoubleSupplier collectionFailures,
      DoubleSupplier lastDurationSeconds,
      List<RemoteWriteSender> senders) {
    this.collections = collections;
    this.collectionFailures = collectionFailures;
    this.lastDurationSeconds = lastDurationSeconds;
    this.senders = List.copyOf(senders);
    this.senderLabels =
        this.senders.stream().map(s -> Labels.of("remote_name", s.name(), "url", s.url())).toList();
  }

  /** The families of one scrape, in no particular order; no per-endpoint ones without endpoints. */
  List<MetricFamily> families() {
    List<MetricFamily> families = new ArrayList<>();
    families.add(
        MetricFamily.counter("flightdeck_agent_collections_total", "Collections run.")
            .add(collections.getAsDouble()));
    families.add(
        MetricFamily.counter(
                "flightdeck_agent_collection_failures_total",
                "Collections whose samples could not be queued for remote write.")
            .add(collectionFailures.getAsDouble()));
    families.add(
        MetricFamily.gauge(
                "flightdeck_agent_last_collection_duration_seconds",
                "How long the last collection of host and GPU metrics took.")
            .add(lastDurationSeconds.getAsDouble()));
    if (!senders.isEmpty()) {
      senderFamilies(families);
    }
    families.addAll(process.families());
    return families;
  }

  private void senderFamilies(List<MetricFamily> families) {
    families.add(
        perSender(
            MetricFamily.gauge(
                "flightdeck_remote_storage_samples_pending",
                "Samples in the disk queue, not yet accepted or refused by the endpoint."),
            RemoteWriteSender::pendingSamples));
    families.add(
        perSender(
            MetricFamily.gauge(
                "flightdeck_remote_storage_queue_bytes",
                "Bytes of the disk queue's segment files."),
            RemoteWriteSender::pendingBytes));
    families.add(
        perSender(
            MetricFamily.counter(
                "flightdeck_remote_storage_samples_total", "Samples the endpoint accepted."),
            RemoteWriteSender::samplesSent));
    families.add(
        perSender(
            MetricFamily.counter(
                "flightdeck_remote_storage_samples_failed_total",
                "Samples the endpoint refused with a status that is not retried (4xx but 429)."),
            RemoteWriteSender::samplesFailed));
    families.add(
        perSender(
            MetricFamily.counter(
                "flightdeck_remote_storage_samples_dropped_total",
                "Samples dropped because the disk queue was full."),
            RemoteWriteSender::samplesDropped));
    families.add(
        perSender(
            MetricFamily.counter(
                "flightdeck_remote_storage_retries_total",
                "Requests sent again after a 5xx, a 429 or a network error."),
            RemoteWriteSender::retries));
    families.add(
        perSender(
            MetricFamily.counter(
                "flightdeck_remote_storage_samples_retried_total",
                "Samples in the requests sent again."),
            RemoteWriteSender::samplesRetried));
  }

  private MetricFamily perSender(MetricFamily family, ToDoubleFunction<RemoteWriteSender> value) {
    for (int i = 0; i < senders.size(); i++) {
      family.add(value.applyAsDouble(senders.get(i)), senderLabels.get(i));
    }
    return family;
  }
}
