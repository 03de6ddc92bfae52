package io.flightdeck.collector.host;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.MetricType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A metric family as an exporter serves it: name, TYPE, HELP and samples. Filled by one collector
 * during one {@link Collector#collect()}, then only read; not thread-safe while being filled.
 */
public final class MetricFamily {

  /** One series of the family; {@code labels} do not carry {@code __name__}. */
  public record Sample(Labels labels, double value) {}

  private final String name;
  private final MetricMetadata metadata;
  private final List<Sample> samples = new ArrayList<>();

  /** The read-only view handed out, made once: renderers ask for it several times per family. */
  private final List<Sample> samplesView = Collections.unmodifiableList(samples);

  private MetricFamily(String name, MetricType type, String help) {
    this.name = name;
    this.metadata = new MetricMetadata(type, help, "");
  }

  public static MetricFamily counter(String name, String help) {
    return new MetricFamily(name, MetricType.COUNTER, help);
  }

  public static MetricFamily gauge(String name, String help) {
    return new MetricFamily(name, MetricType.GAUGE, help);
  }

  /** Adds a sample; {@code labelPairs} alternate names and values. Returns this for chaining. */
  public MetricFamily add(double value, String... labelPairs) {
    samples.add(new Sample(Labels.of(labelPairs), value));
    return this;
  }

  /** Adds a sample with a label set built once for many samples. Returns this for chaining. */
  public MetricFamily add(double value, Labels labels) {
    samples.add(new Sample(labels, value));
    return this;
  }

  public String name() {
    return name;
  }

  public MetricMetadata metadata() {
    return metadata;
  }

  public List<Sample> samples() {
    return samplesView;
  }
}
