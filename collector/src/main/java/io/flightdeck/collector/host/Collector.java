package io.flightdeck.collector.host;

import java.io.IOException;
import java.util.List;

/**
 * One source of host metrics, named as node_exporter names its collectors ({@code cpu}, {@code
 * meminfo}...). Implementations hold no state between calls but thread-safe caches of what does not
 * change (label sets), and may be called from any thread, one call at a time or concurrently.
 */
public interface Collector {

  /** The collector's name, the {@code collector} label of {@code node_scrape_collector_success}. */
  String name();

  /**
   * Reads the source once. Either every family comes back or the call throws: a collector never
   * hands out half a reading. The returned list and families belong to the caller.
   */
  List<MetricFamily> collect() throws IOException;
}
