package io.flightdeck.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.config.Config;
import io.flightdeck.config.ConfigLoader;
import io.flightdeck.config.ScrapeConfig;
import io.flightdeck.config.StaticConfig;
import io.flightdeck.rules.RuleFileParser;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generated config as the server's config loader reads it, and the endpoints it names. */
class DemoConfigTest {

  @Test
  void theConfigScrapesEveryEndpointWithItsLabelsAndLoadsTheScaledPacks(@TempDir Path dir)
      throws Exception {
    DemoOptions options =
        new DemoOptions(
            30, 1, Duration.ofMinutes(150), dir, "https://open.feishu.cn/hook/x", "s3cret", null);
    try (RunningDemo demo = RunningDemo.start(options)) {
      Config config = ConfigLoader.load(demo.configFile());
      assertThat(config.global().scrapeInterval()).isEqualTo(Duration.ofMillis(667));
      assertThat(config.global().evaluationInterval()).isEqualTo(Duration.ofMillis(667));
      assertThat(config.scrapeConfigs())
          .extracting(ScrapeConfig::jobName)
          .containsExactly(DemoScript.MAIN_RUN, DemoConfig.NODE_JOB, DemoConfig.DEMO_JOB);
      List<StaticConfig> ranks = config.scrapeConfigs().get(0).serviceDiscovery().staticConfigs();
      assertThat(ranks).hasSize(DemoScript.RANKS);
      StaticConfig rank11 = ranks.get(11);
      assertThat(rank11.labels().get("run")).isEqualTo(DemoScript.MAIN_RUN);
      assertThat(rank11.labels().get("Hostname")).isEqualTo("node-1");
      assertThat(rank11.labels().get("local_rank")).isEqualTo("3");
      assertThat(rank11.labels().get("instance")).isEqualTo("node-1:8083");
      for (Path rules : config.ruleFiles()) {
        assertThat(RuleFileParser.parse(rules).ruleCount()).isPositive();
      }
      assertThat(config.ruleFiles()).hasSize(io.flightdeck.rules.RulePacks.FILES.size());
      assertThat(config.notifications().toString())
          .contains("receiver=demo", "https://open.feishu.cn/hook/x", "secret=s3cret")
          .containsPattern("url=http://127\\.0\\.0\\.1:\\d+/chat");

      String body = get(rank11.targets().get(0));
      assertThat(body)
          .contains("# TYPE train_loss gauge")
          .contains("gpu_memory_used_mb{device=\"cuda:3\"}")
          .contains("llm_train_max_steps 3000");
      String node1 =
          get(
              config
                  .scrapeConfigs()
                  .get(1)
                  .serviceDiscovery()
                  .staticConfigs()
                  .get(1)
                  .targets()
                  .get(0));
      assertThat(node1)
          .contains("DCGM_FI_DEV_GPU_UTIL{", "Hostname=\"node-1\"")
          .contains("node_network_receive_bytes_total{device=\"eth0\"}");
      String truth =
          get(
              config
                  .scrapeConfigs()
                  .get(2)
                  .serviceDiscovery()
                  .staticConfigs()
                  .get(0)
                  .targets()
                  .get(0));
      assertThat(truth)
          .contains("flightdeck_demo_incident_active{incident=\"nan-loss\"")
          .contains("host=\"node-1\"");
    }
  }

  @Test
  void aShortDurationDropsTheIncidentsThatWouldBeginLater() {
    List<Incident> incidents = DemoScript.incidents(Duration.ofMinutes(40));
    assertThat(incidents)
        .extracting(Incident::id)
        .containsExactly("nan-loss", "hot-gpu", "memory-leak");
    assertThat(incidents.get(2).end()).isEqualTo(Duration.ofMinutes(40));
    assertThat(DemoScript.incidents(DemoScript.DEFAULT_DURATION)).hasSize(7);
  }

  private static String get(String address) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://" + address + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }
}
