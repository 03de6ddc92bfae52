package io.flightdeck.app;

import io.flightdeck.config.Config;
import io.flightdeck.config.ConfigException;
import io.flightdeck.config.ConfigLoader;
import io.flightdeck.config.EffectiveConfigYaml;
import io.flightdeck.notify.NotificationsConfigException;
import io.flightdeck.rules.RuleFileException;
import io.flightdeck.scrape.ScrapeManager;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the running configuration: applies it to the scrape manager and reloads it from {@code
 * --config.file} on SIGHUP or {@code POST /-/reload}. A configuration that fails to load or apply
 * is refused and the running one stays. Whether the last load succeeded, and when one last did, are
 * kept for Prometheus's reload-status metrics. Thread-safe; reloads run one at a time.
 */
final class ConfigReloader {
  private static final Logger log = LoggerFactory.getLogger(ConfigReloader.class);

  private final Path file;
  private final Supplier<Config> withoutFile;
  private final ScrapeManager scrape;
  private final Consumer<Config> rules;
  private Config current;
  private volatile boolean lastSuccessful;
  private volatile long lastSuccessMillis;

  /**
   * @param file the config file, or null to run {@code withoutFile}'s configuration
   * @param rules takes the configuration's rule files first; throws if one is bad, which refuses
   *     the whole configuration
   */
  ConfigReloader(
      Path file, Supplier<Config> withoutFile, ScrapeManager scrape, Consumer<Config> rules) {
    this.file = file;
    this.withoutFile = withoutFile;
    this.scrape = scrape;
    this.rules = rules;
  }

  /** Loads the configuration, failing on a bad file; for startup. */
  static Config load(Path file) {
    return file == null ? null : ConfigLoader.load(file);
  }

  /** Applies a configuration already loaded at startup (null: the one without a file). */
  synchronized void applyInitial(Config loaded) {
    Config config = loaded != null ? loaded : withoutFile.get();
    rules.accept(config);
    scrape.apply(config);
    current = config;
    succeeded();
  }

  /**
   * Reads the file again and applies it.
   *
   * @return null on success, else why the new configuration was refused
   */
  synchronized String reload() {
    Config next;
    try {
      next = file == null ? withoutFile.get() : ConfigLoader.load(file);
      rules.accept(next);
      scrape.apply(next);
    } catch (ConfigException
        | RuleFileException
        | NotificationsConfigException
        | IllegalArgumentException e) {
      log.error("reloading the configuration failed, the running one stays: {}", e.getMessage());
      lastSuccessful = false;
      return e.getMessage();
    }
    current = next;
    succeeded();
    log.info("configuration reloaded from {}", file == null ? "defaults" : file);
    return null;
  }

  /**
   * The configuration in force for {@code /api/v1/status/config}, as Prometheus shows it: parsed,
   * defaults filled in, secrets masked; empty before the first one is applied.
   */
  synchronized String effectiveYaml() {
    return current == null ? "" : EffectiveConfigYaml.render(current);
  }

  synchronized Config current() {
    return current;
  }

  private void succeeded() {
    lastSuccessMillis = System.currentTimeMillis();
    lastSuccessful = true;
  }

  /** Whether the last load or reload was applied: Prometheus's last_reload_successful. */
  boolean lastReloadSuccessful() {
    return lastSuccessful;
  }

  /** When a configuration was last applied, in seconds since the epoch; 0 before the first. */
  double lastReloadSuccessSeconds() {
    return lastSuccessMillis / 1000.0;
  }
}
