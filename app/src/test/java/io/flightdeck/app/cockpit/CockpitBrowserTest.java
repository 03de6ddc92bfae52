package io.flightdeck.app.cockpit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The cockpit in a real Chromium against a real server holding a training fleet (dcgm-exporter and
 * node_exporter names, a 2-node x 8-GPU run, a hung run, a NaN run) and a TensorBoard run: every
 * page draws its charts with data (read through the test hook: {@code data-chart}, {@code
 * data-series}, {@code data-points}, {@code data-region}, {@code data-gpu}), with no console error
 * and no failed request; keyboard navigation; an unknown run and a bad query say what is wrong.
 * Screenshots of every page go to target/cockpit-screenshots.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CockpitBrowserTest {
  private static final String LLAMA = TrainingFleet.LLAMA;

  private CockpitServer server;
  private Browser browser;

  /** Browser-log lines a test expects (its own deliberate 404, say); reset after each test. */
  private Pattern allowedErrors;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    browser = new Browser();
    server = CockpitServer.start(dir);
  }

  @AfterAll
  void stop() throws Exception {
    if (browser != null) {
      browser.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @AfterEach
  void noConsoleErrorsNorFailedRequests() throws Exception {
    List<String> errors = browser.errors(allowedErrors);
    allowedErrors = null;
    assertThat(errors).as("console errors and failed requests").isEmpty();
  }

  private void open(String path) {
    browser.open(server.uri(path).toString());
  }

  private static int attr(WebElement e, String name) {
    String value = e.getDomAttribute(name);
    assertThat(value).as("%s of %s", name, e.getDomAttribute("data-chart")).isNotNull();
    return Integer.parseInt(value);
  }

  /** The chart is drawn with at least {@code series} series and some points. */
  private void assertDrawn(String title, int series) {
    WebElement chart = browser.chart(title);
    assertThat(chart.getDomAttribute("data-state"))
        .as("state of chart %s (%s)", title, browser.chartStates())
        .isEqualTo("ready");
    assertThat(attr(chart, "data-series")).as("series of %s", title).isGreaterThanOrEqualTo(series);
    assertThat(attr(chart, "data-points")).as("points of %s", title).isPositive();
  }

  @Test
  void runsTableListsEveryRunWithProgressLossAndHardware() throws Exception {
    open("/");
    browser.await("tr.run-row[data-run='" + LLAMA + "'] canvas.sparkline");
    List<String> runs =
        browser.driver.findElements(By.cssSelector("tr.run-row")).stream()
            .map(r -> r.getDomAttribute("data-run"))
            .toList();
    assertThat(runs).contains(LLAMA, TrainingFleet.BERT, TrainingFleet.GPT2, TensorBoardRun.NAME);
    WebElement llama = row(LLAMA);
    assertThat(llama.getDomAttribute("data-status")).isEqualTo("running");
    assertThat(
            llama
                .findElement(By.cssSelector("[role=progressbar]"))
                .getDomAttribute("aria-valuenow"))
        .isNotNull();
    assertThat(llama.findElements(By.cssSelector(".health-strip .cell"))).hasSize(16);
    assertThat(llama.getText()).contains("node-0", "node-1");
    assertThat(
            Integer.parseInt(
                llama
                    .findElement(By.cssSelector("canvas.sparkline"))
                    .getDomAttribute("data-points")))
        .isPositive();
    assertThat(row(TrainingFleet.BERT).getDomAttribute("data-status")).isEqualTo("stalled");
    browser.screenshot("01-runs");

    // Ticked runs can be hidden, and the URL remembers it.
    row(TensorBoardRun.NAME).findElement(By.cssSelector("input[type=checkbox]")).click();
    browser.driver.findElement(By.xpath("//button[text()='Hide selected']")).click();
    new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(d -> d.getCurrentUrl().contains("hide=" + TensorBoardRun.NAME));
    assertThat(
            browser.driver.findElements(
                By.cssSelector("tr.run-row[data-run='" + TensorBoardRun.NAME + "']")))
        .isEmpty();

    // The regex filter lives in the URL and hides the other runs.
    WebElement filter = browser.driver.findElement(By.cssSelector("input.filter"));
    filter.sendKeys("^llama|^bert");
    new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(
            d ->
                d.getCurrentUrl().contains("q=")
                    && d.findElements(By.cssSelector("tr.run-row")).size() == 2);
  }

  private WebElement row(String run) {
    return browser.driver.findElement(By.cssSelector("tr.run-row[data-run='" + run + "']"));
  }

  @Test
  void tabReachesTheRunsTableAndEnterOpensTheRun() {
    open("/");
    browser.await("tr.run-row");
    WebElement focused = null;
    for (int i = 0; i < 40; i++) {
      new Actions(browser.driver).sendKeys(Keys.TAB).perform();
      focused = browser.driver.switchTo().activeElement();
      if ("tr".equals(focused.getTagName())) {
        break;
      }
    }
    assertThat(focused.getTagName()).as("Tab reaches a row of the runs table").isEqualTo("tr");
    String run = focused.getDomAttribute("data-run");
    new Actions(browser.driver).sendKeys(Keys.ENTER).perform();
    browser.await("[data-region=gpu]");
    assertThat(browser.driver.getCurrentUrl()).endsWith("/runs/" + run);
    assertThat(browser.driver.findElement(By.cssSelector(".run-title h1")).getText())
        .isEqualTo(run);
    browser.awaitCharts();
  }

  @Test
  void runPageDrawsFiveRegionsOnTheStepAxisWithBandsAndEvents() throws Exception {
    open("/runs/" + LLAMA);
    browser.await("[data-region=network] [data-chart]");
    browser.awaitCharts();
    for (String region : List.of("gpu", "progress", "curves", "system", "network")) {
      assertThat(
              browser.driver.findElements(
                  By.cssSelector("[data-region=" + region + "] [data-chart]")))
          .as("charts of region %s", region)
          .isNotEmpty();
    }
    // 16 GPUs: one min/median/max band and its named outliers.
    for (String gpu :
        List.of("GPU utilisation", "GPU memory used", "GPU temperature", "GPU power")) {
      assertDrawn(gpu, 2);
    }
    assertThat(browser.chart("GPU temperature").getText()).contains("node-1/gpu3");
    // The restart splits the step map into two segments.
    assertDrawn("Step progress", 2);
    assertDrawn("Samples per second", 2);
    assertDrawn("Loss and learning rate", 2);
    assertDrawn("CPU utilisation", 2);
    assertDrawn("Host memory used", 2);
    assertDrawn("Disk I/O", 4);
    assertDrawn("Network receive", 2);
    assertDrawn("Network transmit", 2);
    assertThat(browser.driver.findElements(By.cssSelector(".event-chip"))).isNotEmpty();
    browser.screenshot("02-run-step-axis");
    // The page shell asks for the run's summary while it is parsed (module scripts run only
    // once it is, at domInteractive), and the page takes that answer rather than asking again.
    List<Object> summaryAsked =
        (List<Object>)
            browser.js(
                "const parsed = performance.getEntriesByType('navigation')[0].domInteractive;"
                    + "return performance.getEntriesByType('resource')"
                    + ".filter((r) => new URL(r.name).pathname === '/api/v1/runs/' + arguments[0])"
                    + ".map((r) => r.startTime < parsed);",
                LLAMA);
    assertThat(summaryAsked)
        .as("requests for the run's summary, asked early")
        .containsExactly(true);

    // Drill down to one GPU: the band becomes that GPU's own line.
    open("/runs/" + LLAMA + "?gpu=node-1/3");
    browser.awaitCharts();
    WebElement temp = browser.chart("GPU temperature");
    assertThat(attr(temp, "data-series")).isEqualTo(1);
    assertThat(temp.getText()).contains("node-1/gpu3");
  }

  @Test
  void whatMovedWithAChartListsTheRunsSeriesThatMovedWithIt() throws Exception {
    open("/runs/" + LLAMA + "?x=time");
    browser.awaitCharts();
    browser.await("button[aria-label='What moved with Samples per second?']").click();
    new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(d -> d.getCurrentUrl().contains("moved=Samples"));
    String panelCss = "[data-movers='Samples per second']";
    // The answer: a table of movers, "nothing moved", or the server's error.
    new WebDriverWait(browser.driver, Duration.ofSeconds(30))
        .until(
            d ->
                !d.findElements(
                        By.cssSelector(
                            String.join(
                                ", ",
                                panelCss + " tbody tr",
                                panelCss + " .error-box",
                                panelCss + " .nothing-moved")))
                    .isEmpty());
    WebElement panel = browser.await(panelCss);
    WebElement first =
        panel.findElements(By.cssSelector("table[data-table=movers] tbody tr")).stream()
            .findFirst()
            .orElseThrow(() -> new AssertionError("no mover listed: " + panel.getText()));
    assertThat(first.getText()).containsAnyOf("with it", "against it");
    assertThat(first.findElement(By.cssSelector("a")).getDomAttribute("href"))
        .startsWith("/explore?expr=");
    browser.screenshot("02c-run-what-moved");
    panel.findElement(By.cssSelector("button[aria-label='Close what moved']")).click();
    new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(d -> !d.getCurrentUrl().contains("moved="));
    assertThat(browser.driver.findElements(By.cssSelector("[data-movers]"))).isEmpty();
  }

  @Test
  void aStalledRunSaysSoAboveItsCharts() throws Exception {
    open("/runs/" + TrainingFleet.BERT);
    browser.await("[data-banner=stalled]");
    browser.awaitCharts();
    // Drawn again once the step map says since when: read it after the charts.
    assertThat(browser.await("[data-banner=stalled]").getText())
        .contains("Stalled", "5,130", "since");
    assertThat(browser.driver.getCurrentUrl()).doesNotContain("x=");
    assertThat(browser.driver.findElement(By.cssSelector(".seg a.on")).getText())
        .isEqualTo("Wall time");
    assertDrawn("Step progress", 1);
    assertDrawn("GPU utilisation", 4);
    browser.screenshot("02b-run-stalled");
  }

  @Test
  void wallTimeAxisAndDragZoomRefetchInTheUrl() throws Exception {
    open("/runs/" + LLAMA + "?x=time&smooth=0");
    browser.await("[data-chart='Loss and learning rate'] .u-over");
    browser.awaitCharts();
    assertDrawn("Loss and learning rate", 2);
    int before = attr(browser.chart("Loss and learning rate"), "data-points");
    WebElement over =
        browser.chart("Loss and learning rate").findElement(By.cssSelector(".u-over"));
    int width = over.getSize().getWidth();
    new Actions(browser.driver)
        .moveToElement(over, -width / 4, 0)
        .clickAndHold()
        .moveByOffset(width / 4, 0)
        .release()
        .perform();
    new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(d -> d.getCurrentUrl().contains("from=") && d.getCurrentUrl().contains("to="));
    browser.awaitCharts();
    assertDrawn("Loss and learning rate", 2);
    assertDrawn("GPU utilisation", 2);
    assertThat(browser.driver.findElement(By.cssSelector(".controls")).getText())
        .contains("Reset zoom");
    browser.screenshot("03-run-wall-time-zoomed");
    assertThat(before).isPositive();
  }

  @Test
  void tensorBoardRunHasScalarCardsHistogramsTextAndHparams() throws Exception {
    String base = "/runs/" + TensorBoardRun.NAME;
    // Its overview: curves from the TensorBoard tags, and no GPU region pretending to have data.
    open(base);
    browser.await("[data-chart='Loss and learning rate']");
    browser.awaitCharts();
    assertDrawn("Loss and learning rate", 2);
    assertThat(browser.driver.findElement(By.cssSelector("[data-region=gpu]")).getText())
        .contains("No GPUs are attributed to this run");
    open(base + "?tab=scalars");
    browser.await("[data-chart='train/loss']");
    browser.awaitCharts();
    for (String tag :
        List.of("train/loss", "train/learning_rate", "train/grad_norm", "eval/accuracy")) {
      assertDrawn(tag, 1);
    }
    browser.screenshot("04-run-scalars");
    open(base + "?tab=histograms");
    browser.await("[data-chart='weights/layer1'][data-state=ready]");
    assertDrawn("weights/layer1", 10);
    browser.screenshot("05-run-histograms");
    open(base + "?tab=text");
    assertThat(browser.await("[data-text='samples/generated'] .text-sample").getText())
        .contains("a photo of a cat");
    open(base + "?tab=images");
    WebElement image = browser.await("[data-image='samples/reconstruction'] img[data-step]");
    new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(
            d ->
                (Boolean)
                    browser.js(
                        "return arguments[0].complete && arguments[0].naturalWidth === 32", image));
    assertThat(image.getDomAttribute("data-step")).isEqualTo("300");
    browser.screenshot("06-run-images");
    open(base + "?tab=hparams");
    assertThat(browser.await("table[data-table=hparams]").getText()).contains("lr");
  }

  @Test
  void compareOverlaysRunsByStep() throws Exception {
    open("/compare?runs=" + LLAMA + "," + TrainingFleet.BERT);
    browser.await("table[data-table=compare]");
    browser.awaitCharts();
    assertDrawn("Loss", 2);
    assertDrawn("Learning rate", 2);
    assertDrawn("Loss and learning rate", 4);
    assertThat(browser.driver.findElement(By.cssSelector("table[data-table=compare]")).getText())
        .contains(LLAMA, TrainingFleet.BERT)
        .containsIgnoringCase("running")
        .containsIgnoringCase("stalled");
    browser.screenshot("07-compare");

    // Aligned at each run's restart: only the llama run restarted, and the page says so.
    open("/compare?runs=" + LLAMA + "," + TrainingFleet.BERT + "&align=restart");
    browser.await("table[data-table=compare]");
    browser.awaitCharts();
    assertDrawn("Loss", 2);
    assertThat(browser.driver.findElement(By.cssSelector(".controls")).getText())
        .contains("no restart in " + TrainingFleet.BERT);
  }

  @Test
  void clusterGridShowsEveryGpuWithMarksAndOwners() throws Exception {
    open("/cluster");
    browser.await("[data-gpu='node-0/0']");
    browser.awaitCharts();
    assertThat(browser.driver.findElements(By.cssSelector("[data-gpu]"))).hasSize(22);
    assertThat(
            browser
                .driver
                .findElement(By.cssSelector("[data-gpu='node-1/5']"))
                .getDomAttribute("data-xid"))
        .isEqualTo("79");
    assertThat(
            browser
                .driver
                .findElement(By.cssSelector("[data-gpu='node-3/0']"))
                .getDomAttribute("data-lost"))
        .isEqualTo("true");
    WebElement owned = browser.driver.findElement(By.cssSelector("[data-gpu='node-1/3']"));
    assertThat(owned.getDomAttribute("data-run")).isEqualTo(LLAMA);
    assertDrawn("Cluster utilisation", 2);
    browser.screenshot("08-cluster");
    // An hour ago, before the XID: the scrubber's moment is in the URL and the grid replays it.
    open("/cluster?at=" + (System.currentTimeMillis() / 1000 - 3600));
    browser.await("[data-gpu='node-1/5']");
    browser.awaitCharts();
    assertThat(
            browser
                .driver
                .findElement(By.cssSelector("[data-gpu='node-1/5']"))
                .getDomAttribute("data-xid"))
        .isNull();
    assertThat(
            browser
                .driver
                .findElement(By.cssSelector("[data-gpu='node-3/0']"))
                .getDomAttribute("data-lost"))
        .isNull();
    open("/cluster?metric=temp");
    browser.awaitCharts();
    assertDrawn("Cluster temperature", 2);
    browser.driver.findElement(By.cssSelector("[data-gpu='node-1/3']")).click();
    browser.await("[data-region=gpu]");
    assertThat(browser.driver.getCurrentUrl()).contains("/runs/" + LLAMA).contains("gpu=node-1");
    browser.awaitCharts();
  }

  @Test
  void exploreGraphsAndTablesAQueryAndShowsTheServersErrors() throws Exception {
    open("/explore?expr=DCGM_FI_DEV_GPU_TEMP%7BHostname%3D%22node-1%22%7D&range=3h");
    browser.await("table[data-table=result]");
    browser.awaitCharts();
    assertDrawn("Query result", 8);
    assertThat(browser.driver.findElements(By.cssSelector("table[data-table=result] tbody tr")))
        .hasSize(8);
    browser.screenshot("09-explore");

    // A bad query: the editor says why as you type, and the chart shows the server's message.
    allowedErrors = Pattern.compile("/api/v1/(parse_query|query|query_range)\\?.* 400");
    open("/explore?expr=rate(node_cpu_seconds_total%5B5m%5D&range=1h");
    browser.awaitCharts();
    WebElement chart = browser.chart("Query result");
    assertThat(chart.getDomAttribute("data-state")).isEqualTo("error");
    assertThat(chart.getText())
        .containsIgnoringCase("unclosed")
        .containsIgnoringCase("parse error");
    assertThat(browser.await(".parse-message .error-box").getText())
        .containsIgnoringCase("parse error");
    assertThat(browser.await(".cm-lintRange-error").getText())
        .as("the server's parse error underlines the place it names")
        .isNotEmpty();
    browser.screenshot("10-explore-error");

    // Completion: a metric name from the server, taken with Tab; then a label and its values.
    WebElement editor = browser.await(".cm-content[aria-label='PromQL expression']");
    editor.click();
    editor.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
    editor.sendKeys("DCGM_FI_DEV_GPU_TE");
    assertThat(browser.await(".cm-tooltip-autocomplete li[aria-selected]").getText())
        .startsWith("DCGM_FI_DEV_GPU_TEMP");
    editor.sendKeys(Keys.TAB);
    assertThat(editor.getText()).isEqualTo("DCGM_FI_DEV_GPU_TEMP");
    editor.sendKeys("{Hostname=\"");
    new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(
            d ->
                d.findElements(By.cssSelector(".cm-tooltip-autocomplete li")).stream()
                    .anyMatch(li -> li.getText().startsWith("node-2")));
    editor.sendKeys(Keys.ESCAPE);
    editor.sendKeys("node-2\"}");
    new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(d -> d.findElements(By.cssSelector(".parse-message .error-box")).isEmpty());
    editor.sendKeys(Keys.chord(Keys.CONTROL, Keys.ENTER));
    new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(d -> d.getCurrentUrl().contains("node-2"));
    // The URL changes before the chart is redrawn: wait for the new query's answer, not the
    // error still shown from the bad one.
    new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(d -> "ready".equals(browser.chart("Query result").getDomAttribute("data-state")));
    browser.awaitCharts();
    assertDrawn("Query result", 1);
    assertThat(browser.driver.findElements(By.cssSelector("table[data-table=result] tbody tr")))
        .isNotEmpty()
        .allSatisfy(row -> assertThat(row.getText()).contains("Hostname=\"node-2\""));
    browser.screenshot("09b-explore-editor");
  }

  @Test
  void alertsPageListsFiringAlertsRulesAndNotifications() throws Exception {
    server.awaitAnswer("/api/v1/alerts", "GPUTemperatureHigh");
    server.awaitAnswer("/api/v1/notifications", "\"ok\":true");
    open("/alerts");
    browser.await("tr[data-alert=GPUTemperatureHigh]");
    browser.awaitCharts();
    WebElement hot =
        browser.driver.findElement(By.cssSelector("tr[data-alert=GPUTemperatureHigh]"));
    assertThat(hot.getText()).contains("node-1/3");
    assertThat(hot.findElement(By.cssSelector("a")).getDomAttribute("href"))
        .startsWith("/runs/" + LLAMA);
    assertThat(browser.driver.findElements(By.cssSelector("tr[data-rule]"))).hasSize(3);
    assertDrawn("Firing alerts", 1);
    assertThat(browser.await("table[data-table=notifications]").getText())
        .contains("team-chat", "GPUTemperatureHigh")
        .containsIgnoringCase("delivered");
    assertThat(browser.driver.findElement(By.id("alert-banner")).isDisplayed()).isTrue();
    browser.screenshot("11-alerts");
  }

  @Test
  void anAlertIsSilencedInAlertmanagerFromItsRowAndExpiredAgain() throws Exception {
    server.awaitAnswer("/api/v1/alerts", "GPUTemperatureHigh");
    open("/alerts");
    WebElement row = browser.await("tr[data-alert=GPUTemperatureHigh]");
    row.findElement(By.cssSelector("button[aria-label='Silence GPUTemperatureHigh']")).click();
    WebElement form = browser.await("form[data-form=silence]");
    form.findElement(By.cssSelector("input[aria-label=Comment]")).sendKeys("fan swap on node-1");
    form.findElement(By.cssSelector("input[aria-label='Created by']")).sendKeys("oncall");
    form.findElement(By.cssSelector("button[type=submit]")).click();
    WebElement silence = browser.await("table[data-table=silences] tr[data-state=active]");
    assertThat(silence.getText())
        .contains("alertname=\"GPUTemperatureHigh\"", "oncall", "fan swap on node-1");
    String id = silence.getDomAttribute("data-silence");
    assertThat(browser.await("tr[data-alert=GPUTemperatureHigh][data-silenced]").getText())
        .contains("silenced until");
    assertThat(alertmanagerSilences())
        .as("the silence is Alertmanager's own")
        .contains(id, "fan swap on node-1");
    browser.screenshot("11b-silences");

    silence.findElement(By.cssSelector("button")).click();
    browser.await("table[data-table=silences] tr[data-state=expired][data-silence='" + id + "']");
    assertThat(
            browser.driver.findElements(
                By.cssSelector("tr[data-alert=GPUTemperatureHigh][data-silenced]")))
        .as("an expired silence mutes nothing")
        .isEmpty();
  }

  private String alertmanagerSilences() throws Exception {
    return java.net.http.HttpClient.newHttpClient()
        .send(
            java.net.http.HttpRequest.newBuilder(server.alertmanager().uri("/api/v2/silences"))
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofString())
        .body();
  }

  @Test
  void statusPageShowsTargetsTensorBoardTsdbFlagsAndConfig() throws Exception {
    server.awaitAnswer("/api/v1/targets", "\"health\":\"up\"");
    open("/status");
    browser.await("table[data-table=targets]");
    browser.await("table[data-table=tensorboard]");
    assertThat(browser.driver.findElement(By.cssSelector("table[data-table=targets]")).getText())
        .contains("UP");
    assertThat(
            browser.driver.findElement(By.cssSelector("table[data-table=tensorboard]")).getText())
        .contains(TensorBoardRun.NAME);
    assertThat(browser.await("div.import[data-done=true]").getText())
        .as("the watched logdir is read to its end")
        .contains("100% of", "2 runs", "2 event files");
    assertThat(browser.await("pre.config").getText()).contains("rule_files");
    assertThat(browser.await("[data-section=flags] dl").getText()).contains("storage.tsdb.path");
    browser.screenshot("12-status");
  }

  @Test
  void smoothingIsTensorBoardsDebiasedEmaAndTheStepMapMapsBothWays() {
    open("/status");
    browser.await("[data-section=flags] dl");
    @SuppressWarnings("unchecked")
    List<Object> smoothed =
        (List<Object>)
            browser.async(
                "import('/static/js/smooth.js').then(m => done(m.debiasedEma([1, 2, NaN, 3, null], 0.6)"
                    + ".map(v => v === null ? 'null' : String(v))))");
    assertThat(smoothed.get(0)).isEqualTo("1");
    assertThat(Double.parseDouble((String) smoothed.get(1))).isCloseTo(1.625, within(1e-12));
    assertThat(smoothed.get(2)).isEqualTo("NaN");
    assertThat(Double.parseDouble((String) smoothed.get(3)))
        .isCloseTo(1.824 / 0.784, within(1e-12));
    assertThat(smoothed.get(4)).isEqualTo("null");
    assertThat(
            browser.async(
                "import('/static/js/smooth.js').then(m => done(m.debiasedEma([5, 5, 5], 0.9).join()))"))
        .isEqualTo("5,5,5");
    // A restart: steps 0..100 over t=0..100, then 50..150 over t=200..300.
    String map =
        "import('/static/js/stepmap.js').then(m => { const s = new m.StepMap({segments: ["
            + "{points: [[0, 0], [100, 100]]}, {points: [[200, 50], [300, 150]]}]});"
            + " done([s.stepAt(50), s.stepAt(250), s.stepAt(150), JSON.stringify(s.timesOf(75))].join(' ')); })";
    assertThat(browser.async(map)).isEqualTo("50 100 100 [75,225]");
  }

  @Test
  void anUnknownRunGetsAPageSayingSo() throws Exception {
    open("/runs/no-such-run");
    WebElement page = browser.await("[data-page=run-not-found]");
    assertThat(page.getText()).contains("no-such-run").contains("not found");
    assertThat(page.findElement(By.cssSelector("a[href='/']")).isDisplayed()).isTrue();
    browser.screenshot("13-unknown-run");
    // The browser log does catch failed requests: the page's own 404, and nothing else.
    Pattern notFound = Pattern.compile("/api/v1/runs/no-such-run .*404");
    List<String> logged = browser.errors(null);
    assertThat(logged).anyMatch(m -> notFound.matcher(m).find());
    assertThat(logged).allMatch(m -> notFound.matcher(m).find());
  }
}
