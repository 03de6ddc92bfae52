package io.flightdeck.scrape;

import io.flightdeck.config.ScrapeConfig;
import io.flightdeck.model.DurationFormat;
import io.flightdeck.model.Labels;
import io.flightdeck.model.relabel.Relabeler;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Prometheus's target labelling: group and target labels, then the job's defaults for what is not
 * set ({@code job}, {@code __scheme__}, {@code __metrics_path__}, {@code __scrape_interval__},
 * {@code __scrape_timeout__}, {@code __param_*}), then {@code relabel_configs}, then checks, then
 * {@code __meta_*} removed and {@code instance} defaulted to the address.
 */
final class TargetBuilder {
  /** What became of one discovered target. Exactly one of target, error is set unless dropped. */
  record Result(Labels discovered, ScrapeTarget target, String error) {
    boolean dropped() {
      return target == null && error == null;
    }
  }

  private static final String META_PREFIX = "__meta_";

  private TargetBuilder() {}

  static Result build(Labels targetLabels, Labels groupLabels, ScrapeConfig config) {
    Labels.Builder builder = targetLabels.toBuilder();
    groupLabels.forEach(
        (name, value) -> {
          if (!targetLabels.has(name)) {
            builder.set(name, value);
          }
        });
    Labels merged = builder.build();
    setDefault(builder, merged, "job", config.jobName());
    setDefault(
        builder,
        merged,
        ScrapeTarget.SCRAPE_INTERVAL,
        PromDuration.format(config.scrapeInterval()));
    setDefault(
        builder, merged, ScrapeTarget.SCRAPE_TIMEOUT, PromDuration.format(config.scrapeTimeout()));
    setDefault(builder, merged, ScrapeTarget.METRICS_PATH, config.metricsPath());
    setDefault(builder, merged, ScrapeTarget.SCHEME, config.scheme());
    for (Map.Entry<String, List<String>> param : config.params().entrySet()) {
      if (!param.getValue().isEmpty()) {
        setDefault(
            builder, merged, ScrapeTarget.PARAM_PREFIX + param.getKey(), param.getValue().get(0));
      }
    }
    Labels discovered = builder.build();
    Labels relabelled = Relabeler.process(discovered, config.relabelConfigs());
    if (relabelled == null) {
      return new Result(discovered, null, null);
    }
    String address = relabelled.get(ScrapeTarget.ADDRESS);
    if (address.isEmpty()) {
      return new Result(discovered, null, "no address");
    }
    if (address.contains("/")) {
      return new Result(discovered, null, "\"" + address + "\" is not a valid hostname");
    }
    Duration interval;
    Duration timeout;
    try {
      interval = parse(relabelled, ScrapeTarget.SCRAPE_INTERVAL, "interval");
      timeout = parse(relabelled, ScrapeTarget.SCRAPE_TIMEOUT, "timeout");
    } catch (IllegalArgumentException e) {
      return new Result(discovered, null, e.getMessage());
    }
    if (interval.isZero()) {
      return new Result(discovered, null, "scrape interval cannot be 0");
    }
    if (timeout.isZero()) {
      return new Result(discovered, null, "scrape timeout cannot be 0");
    }
    if (timeout.compareTo(interval) > 0) {
      return new Result(
          discovered,
          null,
          "scrape timeout cannot be greater than scrape interval (\""
              + PromDuration.format(timeout)
              + "\" > \""
              + PromDuration.format(interval)
              + "\")");
    }
    Labels.Builder result = relabelled.toBuilder();
    Labels.Builder stored = Labels.builder();
    relabelled.forEach(
        (name, value) -> {
          if (name.startsWith(META_PREFIX)) {
            result.remove(name);
          } else if (!name.startsWith("__")) {
            stored.set(name, value);
          }
        });
    if (!relabelled.has("instance")) {
      result.set("instance", address);
      stored.set("instance", address);
    }
    Labels all = result.build();
    URI url;
    try {
      url = ScrapeTarget.url(all, config.params());
    } catch (IllegalArgumentException e) {
      return new Result(discovered, null, "invalid scrape URL: " + e.getMessage());
    }
    return new Result(
        discovered, new ScrapeTarget(all, stored.build(), url, interval, timeout), null);
  }

  private static void setDefault(Labels.Builder builder, Labels merged, String name, String value) {
    if (!merged.has(name)) {
      builder.set(name, value);
    }
  }

  private static Duration parse(Labels labels, String name, String what) {
    String text = labels.get(name);
    try {
      return DurationFormat.parse(text);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "error parsing scrape " + what + ": not a valid duration string: \"" + text + "\"");
    }
  }
}
