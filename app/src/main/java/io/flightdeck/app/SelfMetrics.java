package io.flightdeck.app;

import io.flightdeck.remote.RemoteWriteReceiver;
import io.flightdeck.training.DetectionLoop;
import io.flightdeck.tsdb.Tsdb;
import io.flightdeck.tsdb.TsdbMetrics;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.function.Supplier;

/** Flightdeck's own metrics, exposed at /metrics through client_java. */
final class SelfMetrics {
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

  SelfMetrics(
      Tsdb tsdb,
      RemoteWriteReceiver receiver,
      TensorBoardWatchers tensorboard,
      RulesRuntime rules,
      AlertDelivery delivery,
      Supplier<ConfigReloader> configs,
      Supplier<DetectionLoop> detections) {
    TsdbMetrics m = tsdb.metrics();
    gauge(
        "flightdeck_config_last_reload_successful",
        "Whether the last configuration load or reload succeeded (1) or was refused (0).",
        () -> configs.get() != null && configs.get().lastReloadSuccessful() ? 1 : 0);
    gauge(
        "flightdeck_config_last_reload_success_timestamp_seconds",
        "When a configuration was last loaded or reloaded successfully.",
        () -> configs.get() == null ? 0 : configs.get().lastReloadSuccessSeconds());
    counter("flightdeck_tsdb_samples_appended", "Samples stored.", m.samplesAppended::sum);
    counter(
        "flightdeck_tsdb_out_of_order_samples_appended",
        "Samples stored behind their series' newest sample (out-of-order window or backfill).",
        m.outOfOrderSamplesAppended::sum);
    CounterWithCallback.builder()
        .name("flightdeck_tsdb_samples_rejected")
        .help("Samples refused, by reason.")
        .labelNames("reason")
        .callback(cb -> m.rejectedByReason().forEach((reason, count) -> cb.call(count, reason)))
        .register(registry);
    counter("flightdeck_tsdb_commits", "Batches committed.", m.commits::sum);
    counter(
        "flightdeck_tsdb_compactions",
        "Blocks written by head flushes and merges.",
        m.compactions::sum);
    counter(
        "flightdeck_tsdb_compactions_failed",
        "Compactions that failed.",
        m.compactionFailures::sum);
    counter("flightdeck_tsdb_wal_fsyncs", "WAL fsync calls.", m.walFsyncs::sum);
    counter(
        "flightdeck_tsdb_wal_fsync_duration_seconds",
        "Time spent in WAL fsync calls.",
        () -> m.walFsyncNanos.sum() / 1e9);
    counter(
        "flightdeck_tsdb_wal_corruptions",
        "WAL records cut away as torn or corrupt at startup.",
        m.walCorruptions::sum);
    counter(
        "flightdeck_tsdb_wal_write_failures",
        "Commits refused (answered 503) because the WAL could not be written: disk full, I/O error.",
        m.walWriteFailures::sum);
    counter(
        "flightdeck_tsdb_blocks_moved_aside",
        "Damaged blocks moved to corrupted/.",
        m.blocksMovedAside::sum);
    counter(
        "flightdeck_tsdb_retention_deletions",
        "Blocks deleted by retention.",
        m.retentionDeletions::sum);
    gauge("flightdeck_tsdb_head_series", "Series held in memory.", () -> tsdb.head().numSeries());
    gauge(
        "flightdeck_tsdb_blocks_loaded", "Blocks on disk in use.", () -> tsdb.blockMetas().size());
    gauge(
        "flightdeck_tsdb_wal_size_bytes",
        "Bytes of WAL segments and checkpoint.",
        tsdb::walSizeBytes);
    gauge("flightdeck_tsdb_storage_size_bytes", "Bytes of blocks and WAL.", tsdb::sizeBytes);
    counter(
        "flightdeck_remote_write_requests", "Remote-write requests received.", receiver::requests);
    counter(
        "flightdeck_remote_write_invalid_series",
        "Remote-write series skipped for invalid labels (no name, duplicate or empty label names).",
        receiver::invalidSeries);
    counter(
        "flightdeck_remote_write_histograms_unsupported",
        "Native histogram samples received and not stored.",
        receiver::unsupportedHistograms);
    counter(
        "flightdeck_tensorboard_records_read",
        "TensorBoard event records decoded from watched logdirs.",
        () -> tensorboard.stats().records());
    counter(
        "flightdeck_tensorboard_points_stored",
        "Scalar, histogram, text, image and hparams points stored from watched logdirs.",
        () -> tensorboard.stats().points());
    counter(
        "flightdeck_tensorboard_errors",
        "Damaged records, unreadable files and refused samples in watched logdirs.",
        () -> tensorboard.stats().errors());
    gauge(
        "flightdeck_tensorboard_runs",
        "Runs found in watched logdirs.",
        () -> tensorboard.stats().runs());
    // The detectors' background loop, watched as Prometheus's rule groups are.
    counter(
        "flightdeck_detection_passes",
        "Background passes of the training detectors over the running runs.",
        () -> detections.get() == null ? 0 : detections.get().passes());
    counter(
        "flightdeck_detection_pass_seconds",
        "Seconds the detectors' passes took in all; its rate is their share of a core.",
        () -> detections.get() == null ? 0 : detections.get().passSeconds());
    gauge(
        "flightdeck_detection_last_pass_duration_seconds",
        "How long the detectors' last pass took.",
        () -> detections.get() == null ? 0 : detections.get().lastPassSeconds());
    gauge(
        "flightdeck_detection_last_pass_timestamp_seconds",
        "When the detectors' last pass ended.",
        () -> detections.get() == null ? 0 : detections.get().lastPassEndedMs() / 1000.0);
    gauge(
        "flightdeck_detection_last_pass_runs",
        "Runs the detectors' last pass read (running or stalled ones).",
        () -> detections.get() == null ? 0 : detections.get().lastPassRuns());
    AlertingMetrics.register(registry, rules, delivery);
    JvmMetrics.builder().register(registry);
  }

  private void counter(String name, String help, java.util.function.DoubleSupplier value) {
    CounterWithCallback.builder()
        .name(name)
        .help(help)
        .callback(cb -> cb.call(value.getAsDouble()))
        .register(registry);
  }

  private void gauge(String name, String help, java.util.function.DoubleSupplier value) {
    GaugeWithCallback.builder()
        .name(name)
        .help(help)
        .callback(cb -> cb.call(value.getAsDouble()))
        .register(registry);
  }

  byte[] scrape() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(16 << 10);
    writer.write(out, registry.scrape());
    return out.toByteArray();
  }
}
