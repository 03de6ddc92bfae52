package io.flightdeck.app;

import io.flightdeck.remote.RemoteWriteSender;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.function.DoubleSupplier;
import java.util.function.ToDoubleFunction;

/**
 * The agent's own metrics through client_java: its collections and, per remote-write endpoint
 * (labels {@code remote_name} and {@code url}, as Prometheus's {@code
 * prometheus_remote_storage_*}), the queue and what became of the samples. Thread-safe.
 */
final class AgentMetrics {
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

  AgentMetrics(
      DoubleSupplier collections,
      DoubleSupplier collectionFailures,
      DoubleSupplier lastDurationSeconds,
      List<RemoteWriteSender> senders) {
    counter("flightdeck_agent_collections", "Collections run.", collections);
    counter(
        "flightdeck_agent_collection_failures",
        "Collections whose samples could not be queued for remote write.",
        collectionFailures);
    GaugeWithCallback.builder()
        .name("flightdeck_agent_last_collection_duration_seconds")
        .help("How long the last collection of host and GPU metrics took.")
        .callback(cb -> cb.call(lastDurationSeconds.getAsDouble()))
        .register(registry);
    perSender(
        true,
        "flightdeck_remote_storage_samples_pending",
        "Samples in the disk queue, not yet accepted or refused by the endpoint.",
        senders,
        RemoteWriteSender::pendingSamples);
    perSender(
        true,
        "flightdeck_remote_storage_queue_bytes",
        "Bytes of the disk queue's segment files.",
        senders,
        RemoteWriteSender::pendingBytes);
    perSender(
        false,
        "flightdeck_remote_storage_samples",
        "Samples the endpoint accepted.",
        senders,
        RemoteWriteSender::samplesSent);
    perSender(
        false,
        "flightdeck_remote_storage_samples_failed",
        "Samples the endpoint refused with a status that is not retried (4xx but 429).",
        senders,
        RemoteWriteSender::samplesFailed);
    perSender(
        false,
        "flightdeck_remote_storage_samples_dropped",
        "Samples dropped because the disk queue was full.",
        senders,
        RemoteWriteSender::samplesDropped);
    perSender(
        false,
        "flightdeck_remote_storage_retries",
        "Requests sent again after a 5xx, a 429 or a network error.",
        senders,
        RemoteWriteSender::retries);
    perSender(
        false,
        "flightdeck_remote_storage_samples_retried",
        "Samples in the requests sent again.",
        senders,
        RemoteWriteSender::samplesRetried);
    // Process CPU, memory and open files only: the full JVM set walks every MXBean per scrape,
    // which costs more CPU than a collection (bench/README.md, agent section).
    AgentProcessMetrics.register(registry);
  }

  private void counter(String name, String help, DoubleSupplier value) {
    CounterWithCallback.builder()
        .name(name)
        .help(help)
        .callback(cb -> cb.call(value.getAsDouble()))
        .register(registry);
  }

  private void perSender(
      boolean gauge,
      String name,
      String help,
      List<RemoteWriteSender> senders,
      ToDoubleFunction<RemoteWriteSender> value) {
    if (gauge) {
      GaugeWithCallback.builder()
          .name(name)
          .help(help)
          .labelNames("remote_name", "url")
          .callback(cb -> senders.forEach(s -> cb.call(value.applyAsDouble(s), s.name(), s.url())))
          .register(registry);
    } else {
      CounterWithCallback.builder()
          .name(name)
          .help(help)
          .labelNames("remote_name", "url")
          .callback(cb -> senders.forEach(s -> cb.call(value.applyAsDouble(s), s.name(), s.url())))
          .register(registry);
    }
  }

  byte[] scrape() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(16 << 10);
    writer.write(out, registry.scrape());
    return out.toByteArray();
  }
}
