package io.flightdeck.config;

import io.flightdeck.model.Labels;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The {@code global} section: defaults for every scrape job and rule group, and the labels added
 * when talking to external systems.
 *
 * @param ruleQueryOffset how far back rule groups without a {@code query_offset} evaluate
 * @param scrapeLimits the limits of jobs that set none (a job's 0 takes the global value, as in
 *     Prometheus)
 */
public record GlobalConfig(
    Duration scrapeInterval,
    Duration scrapeTimeout,
    Duration evaluationInterval,
    Duration ruleQueryOffset,
    Labels externalLabels,
    List<ScrapeProtocol> scrapeProtocols,
    ScrapeLimits scrapeLimits) {
  public static final GlobalConfig DEFAULT =
      new GlobalConfig(
          Duration.ofMinutes(1),
          Duration.ofSeconds(10),
          Duration.ofMinutes(1),
          Duration.ZERO,
          Labels.EMPTY,
          ScrapeProtocol.DEFAULTS,
          ScrapeLimits.NONE);

  public GlobalConfig {
    Objects.requireNonNull(scrapeInterval, "scrapeInterval");
    Objects.requireNonNull(scrapeTimeout, "scrapeTimeout");
    Objects.requireNonNull(evaluationInterval, "evaluationInterval");
    Objects.requireNonNull(ruleQueryOffset, "ruleQueryOffset");
    Objects.requireNonNull(scrapeLimits, "scrapeLimits");
    Objects.requireNonNull(externalLabels, "externalLabels");
    scrapeProtocols = List.copyOf(scrapeProtocols);
  }
}
