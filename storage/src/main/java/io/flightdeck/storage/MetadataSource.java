package io.flightdeck.storage;

import io.flightdeck.model.MetricMetadata;
import java.util.Map;

/** Stores that keep metric metadata answer the metadata API through this. */
public interface MetadataSource {
  /** Metadata by metric family name, a snapshot. */
  Map<String, MetricMetadata> metadata();
}
