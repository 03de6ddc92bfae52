package io.flightdeck.config;

import io.flightdeck.model.Labels;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The {@code global} section: defaults for every scrape job and rule group, and the labels added
 * when talking to external systems.
 */
public record GlobalConfig(
    Duration scrapeInterval,
    Duration scrapeTimeout,
    Duration evaluationInterval,
    Labels externalLabels,
    List<ScrapeProtocol> scrapeProtocols) {
  public static final GlobalConfig DEFAULT =
      new GlobalConfig(
          Duration.ofMinutes(1),
          Duration.ofSeconds(10),
          Duration.ofMinutes(1),
          Labels.EMPTY,
          ScrapeProtocol.DEFAULTS);

  public GlobalConfig {
    Objects.requireNonNull(scrapeInterval, "scrapeInterval");
    Objects.requireNonNull(scrapeTimeout, "scrapeTimeout");
    Objects.requireNonNull(evaluationInterval, "evaluationInterval");
    Objects.requireNonNull(externalLabels, "externalLabels");
    scrapeProtocols = List.copyOf(scrapeProtocols);
  }
}
