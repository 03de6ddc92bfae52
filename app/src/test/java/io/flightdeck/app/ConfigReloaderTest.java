package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.config.Config;
import io.flightdeck.model.Clock;
import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.scrape.ScrapeManager;
import io.flightdeck.scrape.TargetStatus;
import io.flightdeck.storage.Appendable;
import io.flightdeck.storage.Appender;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigReloaderTest {
  /** Takes and forgets samples: these tests look at targets only. */
  private static final Appendable NOWHERE =
      () ->
          new Appender() {
            @Override
            public long append(long ref, Labels labels, long timestampMillis, double value) {
              return 1;
            }

            @Override
            public void updateMetadata(String metricName, MetricMetadata metadata) {}

            @Override
            public void commit() {}

            @Override
            public void rollback() {}
          };

  private final ScrapeManager scrape = new ScrapeManager(NOWHERE, Clock.system());

  @TempDir Path dir;

  @AfterEach
  void close() {
    scrape.close();
  }

  @Test
  void withoutAFileTheServerScrapesItself() {
    ConfigReloader reloader =
        new ConfigReloader(
            null, () -> Config.defaultSelfScrape("127.0.0.1:9595"), scrape, config -> {});

    reloader.applyInitial(ConfigReloader.load(null));

    TargetStatus self = scrape.activeTargets().get(0);
    assertThat(self.scrapePool()).isEqualTo("flightdeck");
    assertThat(self.scrapeUrl()).isEqualTo("http://127.0.0.1:9595/metrics");
  }

  @Test
  void aBadFileIsRefusedAndTheRunningConfigStays() throws Exception {
    Path file = dir.resolve("flightdeck.yml");
    Files.writeString(
        file, "scrape_configs:\n  - job_name: a\n    static_configs: [{targets: ['h:1']}]\n");
    ConfigReloader reloader = new ConfigReloader(file, () -> null, scrape, config -> {});
    Config first = ConfigReloader.load(file);
    assertThat(reloader.lastReloadSuccessful()).isFalse();
    assertThat(reloader.lastReloadSuccessSeconds()).isZero();
    reloader.applyInitial(first);
    assertThat(reloader.lastReloadSuccessful()).isTrue();
    double loaded = reloader.lastReloadSuccessSeconds();
    assertThat(loaded).isPositive();

    Files.writeString(file, "scrape_configs:\n  - job_name: a\n    scrape_interval: soon\n");
    String error = reloader.reload();

    assertThat(error).startsWith(file + ":3:").contains("scrape_configs[0].scrape_interval");
    assertThat(reloader.current()).isSameAs(first);
    assertThat(scrape.activeTargets()).hasSize(1);
    assertThat(reloader.lastReloadSuccessful()).isFalse();
    assertThat(reloader.lastReloadSuccessSeconds()).isEqualTo(loaded);

    Files.writeString(
        file, "scrape_configs:\n  - job_name: b\n    static_configs: [{targets: ['h:2']}]\n");
    assertThat(reloader.reload()).isNull();
    assertThat(reloader.lastReloadSuccessful()).isTrue();
    assertThat(reloader.lastReloadSuccessSeconds()).isGreaterThanOrEqualTo(loaded);
    assertThat(scrape.activeTargets())
        .singleElement()
        .satisfies(t -> assertThat(t.scrapePool()).isEqualTo("b"));
  }
}
