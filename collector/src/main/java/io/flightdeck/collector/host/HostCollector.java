package io.flightdeck.collector.host;

import io.flightdeck.model.Clock;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs every host collector once per scrape, as node_exporter does: a collector that fails is
 * reported in {@code node_scrape_collector_success{collector}} and the others still answer.
 * Thread-safe if its collectors are; they run one after another on the calling thread.
 */
public final class HostCollector {

  /**
   * One scrape: every family, the scrape's own two families included, and the error message of each
   * collector that failed, by collector name.
   */
  public record Scrape(List<MetricFamily> families, Map<String, String> failures) {}

  private final List<Collector> collectors;
  private final Clock clock;

  HostCollector(List<Collector> collectors, Clock clock) {
    this.collectors = List.copyOf(collectors);
    this.clock = clock;
  }

  /**
   * node_exporter's Linux collectors with its default device filters, reading {@code procRoot}
   * ({@code /proc} on a live host, a fixture tree in tests).
   */
  public static HostCollector linux(Path procRoot, Clock clock) {
    return new HostCollector(
        List.of(
            new CpuCollector(procRoot),
            new DiskstatsCollector(procRoot, DiskstatsCollector.DEFAULT_EXCLUDE),
            new LoadavgCollector(procRoot),
            new MeminfoCollector(procRoot),
            new NetdevCollector(procRoot, device -> false)),
        clock);
  }

  public Scrape collect() {
    List<MetricFamily> families = new ArrayList<>();
    Map<String, String> failures = new LinkedHashMap<>();
    MetricFamily duration =
        MetricFamily.gauge(
            "node_scrape_collector_duration_seconds",
            "node_exporter: Duration of a collector scrape.");
    MetricFamily success =
        MetricFamily.gauge(
            "node_scrape_collector_success", "node_exporter: Whether a collector succeeded.");
    for (Collector collector : collectors) {
      long start = clock.millis();
      boolean ok;
      try {
        families.addAll(collector.collect());
        ok = true;
      } catch (IOException | RuntimeException e) {
        // A missing or unexpected file must not take the other collectors down with it.
        failures.put(collector.name(), String.valueOf(e.getMessage()));
        ok = false;
      }
      duration.add((clock.millis() - start) / 1000.0, "collector", collector.name());
      success.add(ok ? 1 : 0, "collector", collector.name());
    }
    families.add(duration);
    families.add(success);
    return new Scrape(
        Collections.unmodifiableList(families), Collections.unmodifiableMap(failures));
  }
}
