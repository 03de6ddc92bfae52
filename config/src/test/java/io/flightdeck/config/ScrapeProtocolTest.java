package io.flightdeck.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScrapeProtocolTest {
  @TempDir Path dir;

  @Test
  void theDefaultAcceptHeaderIsPrometheus3s() {
    assertThat(ScrapeProtocol.acceptHeader(ScrapeProtocol.DEFAULTS))
        .isEqualTo(
            "application/openmetrics-text;version=1.0.0;q=0.6,"
                + "application/openmetrics-text;version=0.0.1;q=0.5,"
                + "text/plain;version=1.0.0;q=0.4,"
                + "text/plain;version=0.0.4;q=0.3,*/*;q=0.2");
  }

  @Test
  void protobufIsNeverOfferedSinceOnlyTextIsParsed() {
    assertThat(
            ScrapeProtocol.acceptHeader(
                List.of(ScrapeProtocol.PROMETHEUS_PROTO, ScrapeProtocol.PROMETHEUS_TEXT_0_0_4)))
        .isEqualTo("text/plain;version=0.0.4;q=0.6,*/*;q=0.5");
  }

  @Test
  void jobsInheritTheGlobalListAndMayOverrideIt() throws Exception {
    Path file = dir.resolve("prometheus.yml");
    Files.writeString(
        file,
        """
        global:
          scrape_protocols: [PrometheusText0.0.4]
        scrape_configs:
          - job_name: inherits
            static_configs: [{targets: ["a:1"]}]
          - job_name: own
            scrape_protocols: [OpenMetricsText1.0.0, PrometheusText1.0.0]
            fallback_scrape_protocol: PrometheusText0.0.4
            enable_compression: false
            static_configs: [{targets: ["b:1"]}]
        """);
    Config config = ConfigLoader.load(file);
    ScrapeConfig inherits = config.scrapeConfigs().get(0);
    ScrapeConfig own = config.scrapeConfigs().get(1);
    assertThat(inherits.scrapeProtocols()).containsExactly(ScrapeProtocol.PROMETHEUS_TEXT_0_0_4);
    assertThat(inherits.fallbackScrapeProtocol()).isNull();
    assertThat(inherits.enableCompression()).isTrue();
    assertThat(own.scrapeProtocols())
        .containsExactly(
            ScrapeProtocol.OPENMETRICS_TEXT_1_0_0, ScrapeProtocol.PROMETHEUS_TEXT_1_0_0);
    assertThat(own.fallbackScrapeProtocol()).isEqualTo(ScrapeProtocol.PROMETHEUS_TEXT_0_0_4);
    assertThat(own.enableCompression()).isFalse();
  }
}
