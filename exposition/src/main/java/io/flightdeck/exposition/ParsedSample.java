package io.flightdeck.exposition;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One sample line.
 *
 * @param family the metric family the sample belongs to ({@code foo} for {@code foo_bucket} of a
 *     histogram {@code foo}); the sample's own name when no metadata claims it
 * @param metadata the family's TYPE, HELP and UNIT as declared before this sample
 * @param labels the series, {@code __name__} included
 * @param timestampMs the sample's timestamp in milliseconds, if the line has one
 */
public record ParsedSample(
    String family,
    MetricMetadata metadata,
    Labels labels,
    double value,
    OptionalLong timestampMs,
    Optional<Exemplar> exemplar) {

  /** The sample's metric name, the value of {@code __name__}. */
  public String metricName() {
    return labels.metricName();
  }
}
