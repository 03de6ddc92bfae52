package io.flightdeck.scrape;

import io.flightdeck.config.ScrapeLimits;
import io.flightdeck.model.Labels;

/**
 * A scraped sample's labels joined with its target's, as Prometheus does: with {@code honor_labels}
 * the sample's own labels win; without, the target's win and each clashing sample label is kept as
 * {@code exported_<name>} (with more prefixes while that name is taken too).
 */
final class SampleLabels {
  private static final String EXPORTED = "exported_";

  private SampleLabels() {}

  static Labels join(Labels sample, Labels target, boolean honorLabels) {
    Labels.Builder builder = sample.toBuilder();
    if (honorLabels) {
      target.forEach(
          (name, value) -> {
            if (!sample.has(name)) {
              builder.set(name, value);
            }
          });
      return builder.build();
    }
    Labels.Builder clashes = null;
    for (int i = 0; i < target.size(); i++) {
      String name = target.name(i);
      String exposed = sample.get(name);
      if (!exposed.isEmpty()) {
        clashes = clashes == null ? Labels.builder() : clashes;
        clashes.set(name, exposed);
      }
      builder.set(name, target.value(i));
    }
    if (clashes == null) {
      return builder.build();
    }
    Labels joined = builder.build();
    Labels clashing = clashes.build();
    for (int i = 0; i < clashing.size(); i++) {
      String name = EXPORTED + clashing.name(i);
      while (joined.has(name)) {
        name = EXPORTED + name;
      }
      builder.set(name, clashing.value(i));
      joined = builder.build();
    }
    return joined;
  }

  /** Fails the scrape when a sample's labels break a label limit (after relabelling). */
  static void checkLimits(Labels labels, ScrapeLimits limits) throws ScrapeException {
    String metric = truncate(labels.metricName());
    if (limits.labelLimit() > 0 && labels.size() > limits.labelLimit()) {
      throw new ScrapeException(
          "label_limit exceeded (metric: "
              + metric
              + ", number of labels: "
              + labels.size()
              + ", limit: "
              + limits.labelLimit()
              + ")");
    }
    if (limits.labelNameLengthLimit() <= 0 && limits.labelValueLengthLimit() <= 0) {
      return;
    }
    for (int i = 0; i < labels.size(); i++) {
      String name = labels.name(i);
      String value = labels.value(i);
      if (limits.labelNameLengthLimit() > 0 && name.length() > limits.labelNameLengthLimit()) {
        throw new ScrapeException(
            "label_name_length_limit exceeded (metric: "
                + metric
                + ", label name: "
                + truncate(name)
                + ", length: "
                + name.length()
                + ", limit: "
                + limits.labelNameLengthLimit()
                + ")");
      }
      if (limits.labelValueLengthLimit() > 0 && value.length() > limits.labelValueLengthLimit()) {
        throw new ScrapeException(
            "label_value_length_limit exceeded (metric: "
                + metric
                + ", label name: "
                + truncate(name)
                + ", value: \""
                + truncate(value)
                + "\", length: "
                + value.length()
                + ", limit: "
                + limits.labelValueLengthLimit()
                + ")");
      }
    }
  }

  /** Go's {@code %.50s}. */
  private static String truncate(String text) {
    return text.length() <= 50 ? text : text.substring(0, 50);
  }
}
