package io.flightdeck.config;

import io.flightdeck.model.Labels;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A whole validated configuration: the sections of {@code prometheus.yml} Flightdeck reads, plus
 * its own {@code tensorboard} and {@code notifications}. Immutable.
 *
 * @param ruleFiles rule file patterns (a {@code *} may appear in the last element), relative ones
 *     taken from the config file's directory
 * @param notifications the {@code notifications} section as read: maps, lists, strings and nulls,
 *     unvalidated until its module defines it
 */
public record Config(
    GlobalConfig global,
    List<ScrapeConfig> scrapeConfigs,
    List<Path> ruleFiles,
    AlertingConfig alerting,
    List<RemoteWriteConfig> remoteWrite,
    TensorBoardConfig tensorboard,
    Map<String, Object> notifications) {

  /** The job name {@link #defaultSelfScrape} uses. */
  public static final String SELF_JOB = "flightdeck";

  public Config {
    Objects.requireNonNull(global, "global");
    scrapeConfigs = List.copyOf(scrapeConfigs);
    ruleFiles = List.copyOf(ruleFiles);
    Objects.requireNonNull(alerting, "alerting");
    remoteWrite = List.copyOf(remoteWrite);
    Objects.requireNonNull(tensorboard, "tensorboard");
    Objects.requireNonNull(notifications, "notifications");
  }

  /** This configuration with {@code ruleFiles} in place of its own. */
  public Config withRuleFiles(List<Path> ruleFiles) {
    return new Config(
        global, scrapeConfigs, ruleFiles, alerting, remoteWrite, tensorboard, notifications);
  }

  /**
   * The configuration used without a config file: global defaults and one job that scrapes
   * Flightdeck's own {@code /metrics} at {@code listenAddress} ({@code host:port}).
   */
  public static Config defaultSelfScrape(String listenAddress) {
    GlobalConfig global = GlobalConfig.DEFAULT;
    ScrapeConfig self =
        new ScrapeConfig(
            SELF_JOB,
            global.scrapeInterval(),
            global.scrapeTimeout(),
            ScrapeConfig.DEFAULT_METRICS_PATH,
            ScrapeConfig.DEFAULT_SCHEME,
            Map.of(),
            false,
            true,
            HttpClientConfig.DEFAULT,
            ScrapeLimits.NONE,
            new ServiceDiscoveryConfigs(
                List.of(new StaticConfig(List.of(listenAddress), Labels.EMPTY)),
                List.of(),
                List.of(),
                List.of()),
            List.of(),
            List.of(),
            global.scrapeProtocols(),
            null,
            true);
    return new Config(
        global,
        List.of(self),
        List.of(),
        AlertingConfig.NONE,
        List.of(),
        TensorBoardConfig.NONE,
        Map.of());
  }
}
