package io.flightdeck.app.cockpit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The README's tour, taken in real Chromium on {@code flightdeck demo} at high speed once its
 * scripted incidents have happened: the runs, the main run with every region drawn and the
 * incidents among its events, the two LoRA runs compared, the cluster with the GPU lost to XID 79,
 * the alerts with their history and notification log, Explore and Status; no browser-log error on
 * any page. Saves the README's screenshots (1280x900) into docs/screenshots of the repository when
 * run with {@code -Dflightdeck.screenshots=docs}, into target/cockpit-screenshots/tour otherwise.
 */
class CockpitDemoTourTest {
  /** The scripted incidents end by 150 simulated minutes: one real minute at this speed. */
  private static final double SPEED = 150;

  /** The job outlives the incidents, so the tour sees a live cluster, not one that has ended. */
  private static final String DURATION = "330m";

  private static final Duration INCIDENTS_TIMEOUT = Duration.ofSeconds(150);
  private static final String MAIN_RUN = "llama-7b-fsdp";
  private static final List<String> DEMO_RUNS =
      List.of(MAIN_RUN, "llama-7b-lora-a", "llama-7b-lora-b");
  private static final ObjectMapper JSON = new ObjectMapper();

  private DemoProcess demo;
  private Browser browser;

  @Test
  void everyPageShowsTheDemosRunsAndIncidents(@TempDir Path dir) throws Exception {
    Path shots = screenshotDir();
    try (DemoProcess started = DemoProcess.start(dir, SPEED, DURATION);
        Browser chromium = new Browser()) {
      demo = started;
      browser = chromium;
      awaitTheLastIncident();

      runs(shots);
      mainRun(shots);
      compare(shots);
      cluster(shots);
      alerts(shots);
      explore();
      status();
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(
          e.getMessage() + "\n--- demo log (tail) ---\n" + tail(demo == null ? "" : demo.log()), e);
    }
  }

  /** The demo's XID 79 comes last: once its GPU is lost, every incident has been seen. */
  private void awaitTheLastIncident() throws Exception {
    long deadline = System.nanoTime() + INCIDENTS_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      double now = System.currentTimeMillis() / 1000.0;
      JsonNode events =
          JSON.readTree(
                  demo.get(
                          "/api/v1/runs/%s/events?start=%.0f&end=%.0f"
                              .formatted(MAIN_RUN, now - 3600, now + 60))
                      .body())
              .path("data");
      for (JsonNode e : events) {
        if (e.path("kind").asText().equals("gpu_lost")) {
          // A few evaluations more, so the XID's alerts fire and are delivered.
          Thread.sleep(3000);
          return;
        }
      }
      Thread.sleep(1000);
    }
    throw new AssertionError("the demo's GPU was not lost within " + INCIDENTS_TIMEOUT);
  }

  private void runs(Path shots) throws Exception {
    open("/");
    for (String run : DEMO_RUNS) {
      browser.await("tr.run-row[data-run='" + run + "'] canvas.sparkline");
    }
    List<String> listed =
        browser.driver.findElements(By.cssSelector("tr.run-row")).stream()
            .map(r -> r.getDomAttribute("data-run"))
            .toList();
    assertThat(listed).containsAll(DEMO_RUNS);
    WebElement main =
        browser.driver.findElement(By.cssSelector("tr.run-row[data-run='" + MAIN_RUN + "']"));
    assertThat(main.findElements(By.cssSelector(".health-strip .cell"))).hasSize(16);
    assertThat(main.getText()).contains("node-0", "node-1");
    assertNoBrowserErrors("/");
    browser.viewportScreenshot(shots, "tour-1-runs");
  }

  private void mainRun(Path shots) throws Exception {
    open("/runs/" + MAIN_RUN);
    browser.await("[data-region='network'] [data-chart]");
    browser.awaitCharts();
    for (String region : List.of("gpu", "progress", "curves", "system", "network")) {
      List<WebElement> charts =
          browser.driver.findElements(
              By.cssSelector("[data-region='" + region + "'] [data-chart]"));
      List<WebElement> shown = charts.stream().filter(WebElement::isDisplayed).toList();
      assertThat(shown).as("charts of region %s", region).isNotEmpty();
      for (WebElement chart : shown) {
        String title = chart.getDomAttribute("data-chart");
        assertThat(chart.getDomAttribute("data-state"))
            .as("chart %s of region %s (%s)", title, region, browser.chartStates())
            .isEqualTo("ready");
        assertThat(Integer.parseInt(chart.getDomAttribute("data-points")))
            .as("points of %s", title)
            .isPositive();
      }
    }
    // The lane folds to keep the charts in view: unfolded, it shows every event.
    WebElement unfold = browser.driver.findElement(By.cssSelector(".lane-toggle"));
    assertThat(unfold.isDisplayed()).as("the folded event lane offers to show all").isTrue();
    unfold.click();
    // The incidents as events: the demo's own ground truth, and the NaN alert of all sixteen
    // ranks as one chip that names both nodes.
    List<WebElement> incidents =
        browser.driver.findElements(By.cssSelector(".event-chip[data-event-kind='demo_incident']"));
    assertThat(incidents.size()).as("demo incidents in the event lane").isGreaterThanOrEqualTo(6);
    assertThat(incidents.stream().map(WebElement::getText).toList())
        .as("incidents are placed by their host/gpu labels, not the demo exporter's address")
        .noneMatch(t -> t.contains("127.0.0.1"))
        .anyMatch(t -> t.contains("XID 79") && t.contains("node-1/gpu2"));
    WebElement nan =
        browser.driver.findElements(By.cssSelector(".event-chip[data-event-kind='alert']")).stream()
            .filter(c -> c.getText().contains("TrainingLossNotFinite"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no TrainingLossNotFinite event chip"));
    assertThat(nan.getDomAttribute("data-event-count")).isEqualTo("16");
    assertThat(nan.getText()).contains("\u00d716", "node-0, node-1");
    // The chip's details list every rank.
    nan.click();
    WebElement detail = browser.await(".event-detail:not([hidden])");
    assertThat(detail.findElements(By.tagName("li"))).hasSize(16);
    nan.click();
    unfold.click();
    assertNoBrowserErrors("/runs/" + MAIN_RUN);
    browser.viewportScreenshot(shots, "tour-2-run");
  }

  private void compare(Path shots) throws Exception {
    open("/compare?runs=llama-7b-lora-a,llama-7b-lora-b");
    browser.await("[data-chart='Loss']");
    browser.awaitCharts();
    for (String title : List.of("Loss", "Learning rate", "Loss and learning rate")) {
      WebElement chart = browser.chart(title);
      assertThat(chart.getDomAttribute("data-state")).as(title).isEqualTo("ready");
      assertThat(Integer.parseInt(chart.getDomAttribute("data-series")))
          .as("series of %s", title)
          .isGreaterThanOrEqualTo(2);
    }
    browser.await("[data-table='compare']");
    assertNoBrowserErrors("/compare");
    browser.viewportScreenshot(shots, "tour-3-compare");
  }

  private void cluster(Path shots) throws Exception {
    open("/cluster");
    browser.await("[data-gpu]");
    List<WebElement> cells = browser.driver.findElements(By.cssSelector("[data-gpu]"));
    assertThat(cells).hasSize(16);
    WebElement lost = browser.driver.findElement(By.cssSelector("[data-gpu='node-1/2']"));
    assertThat(lost.getDomAttribute("data-lost")).as("the GPU lost to XID 79").isEqualTo("true");
    assertThat(lost.getDomAttribute("data-xid")).isEqualTo("79");
    assertThat(
            cells.stream()
                .filter(c -> !"node-1/2".equals(c.getDomAttribute("data-gpu")))
                .filter(
                    c ->
                        c.getDomAttribute("data-lost") != null
                            || c.getDomAttribute("data-stale") != null)
                .map(c -> c.getDomAttribute("data-gpu"))
                .toList())
        .as("GPUs marked lost or without data besides node-1/2")
        .isEmpty();
    browser.awaitCharts();
    assertNoBrowserErrors("/cluster");
    browser.viewportScreenshot(shots, "tour-4-cluster");
  }

  private void alerts(Path shots) throws Exception {
    open("/alerts");
    browser.await("[data-table='notifications'] tbody tr");
    browser.awaitCharts();
    WebElement history = browser.chart("Firing alerts");
    assertThat(history.getDomAttribute("data-state"))
        .as("the firing history (%s)", browser.chartStates())
        .isEqualTo("ready");
    assertThat(Integer.parseInt(history.getDomAttribute("data-series")))
        .as("alert names in the firing history")
        .isGreaterThanOrEqualTo(5);
    List<String> badges =
        browser
            .driver
            .findElements(By.cssSelector("[data-table='notifications'] .badge[data-alert]"))
            .stream()
            .map(b -> b.getDomAttribute("data-alert") + "=" + b.getDomAttribute("data-count"))
            .toList();
    assertThat(badges)
        .as("one badge per alert name in a delivery, the NaN of sixteen ranks among them")
        .contains("TrainingLossNotFinite=16")
        .anyMatch(b -> b.startsWith("GPUTemperatureHigh="))
        .anyMatch(b -> b.startsWith("GPUFellOffTheBus="));
    assertNoBrowserErrors("/alerts");
    browser.viewportScreenshot(shots, "tour-5-alerts");
  }

  private void explore() {
    open("/explore?expr=DCGM_FI_DEV_GPU_TEMP&range=1h");
    browser.await("[data-chart='Query result']");
    browser.awaitCharts();
    WebElement chart = browser.chart("Query result");
    assertThat(chart.getDomAttribute("data-state")).isEqualTo("ready");
    assertThat(Integer.parseInt(chart.getDomAttribute("data-series"))).isGreaterThanOrEqualTo(15);
    assertNoBrowserErrors("/explore");
  }

  private void status() {
    open("/status");
    WebElement targets = browser.await("[data-table='targets'] tbody tr");
    assertThat(targets.getText()).isNotBlank();
    assertNoBrowserErrors("/status");
  }

  private void open(String path) {
    browser.open(demo.uri(path).toString());
  }

  private void assertNoBrowserErrors(String page) {
    assertThat(browser.errors(null)).as("browser-log errors on %s", page).isEmpty();
  }

  /** docs/screenshots of the repository with -Dflightdeck.screenshots=docs, else under target. */
  private static Path screenshotDir() {
    if (!"docs".equals(System.getProperty("flightdeck.screenshots"))) {
      return Browser.SCREENSHOTS.resolve("tour");
    }
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve("mvnw"))) {
      dir = dir.getParent();
    }
    assertThat(dir).as("the repository root (a folder with mvnw) above the test's").isNotNull();
    return dir.resolve("docs").resolve("screenshots");
  }

  private static String tail(String log) {
    List<String> lines = new ArrayList<>(List.of(log.split("\n")));
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }
}
