package io.flightdeck.collector.host;

import io.flightdeck.exposition.TextFormatWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;

/**
 * Renders families as a {@code /metrics} body in text format 0.0.4, families sorted by name and
 * series by labels, the order node_exporter's client library serves, so outputs can be diffed.
 */
public final class MetricsText {
  private MetricsText() {}

  public static void write(List<MetricFamily> families, Appendable out) throws IOException {
    TextFormatWriter writer = new TextFormatWriter(out);
    List<MetricFamily> sorted = new ArrayList<>(families);
    sorted.sort(Comparator.comparing(MetricFamily::name));
    for (MetricFamily family : sorted) {
      writer.family(family.name(), family.metadata());
      List<MetricFamily.Sample> samples = new ArrayList<>(family.samples());
      samples.sort(Comparator.comparing(MetricFamily.Sample::labels));
      for (MetricFamily.Sample sample : samples) {
        writer.sample(family.name(), sample.labels(), sample.value(), OptionalLong.empty());
      }
    }
  }

  public static String toText(List<MetricFamily> families) {
    StringBuilder out = new StringBuilder();
    try {
      write(families, out);
    } catch (IOException e) {
      throw new IllegalStateException("a StringBuilder does not fail", e);
    }
    return out.toString();
  }
}
