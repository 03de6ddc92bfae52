package io.flightdeck.app.cockpit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard pages in a real Chromium against a real server: dcgm-exporter's official dashboard
 * (shipped) on the training fleet's dcgm series, the community "Node Exporter Full" dashboard
 * imported through the API and drawn on a real node_exporter that the server scrapes, import by
 * paste with its report and a refused document with its JSON path, a panel edited and saved as a
 * new version, and the transformations computed on known series. A panel whose queries have data
 * (checked by running them on the API) must be drawn with points; none may show an error; no
 * console error and no failed request. Screenshots: target/cockpit-screenshots, and
 * docs/screenshots/dashboard-*.png with -Dflightdeck.screenshots=docs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DashboardPagesBrowserTest {
  private static final Path NODE_EXPORTER = Path.of("/usr/bin/prometheus-node-exporter");
  private static final String NODE_DASHBOARD = "dashboards/node-exporter-full.json";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private static final Duration DRAW_TIMEOUT = Duration.ofSeconds(90);

  private CockpitServer server;
  private Browser browser;
  private Process nodeExporter;

  /** When the server began scraping node_exporter, in epoch ms. */
  private long nodeScrapedSince;

  private Pattern allowedErrors;

  /** The last moment of the transforms' series, in epoch ms. */
  private long transformsEnd;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    assertThat(NODE_EXPORTER)
        .as(
            "Debian's prometheus-node-exporter is needed (apt-get install prometheus-node-exporter)")
        .isExecutable();
    browser = new Browser();
    server = CockpitServer.start(dir);
    int port = freePort();
    nodeExporter =
        new ProcessBuilder(NODE_EXPORTER.toString(), "--web.listen-address=127.0.0.1:" + port)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("node-exporter.log").toFile())
            .start();
    // The server scrapes it from now on: its job added to the configuration, then reloaded.
    Path config = dir.resolve("flightdeck.yml");
    String yaml = Files.readString(config);
    Files.writeString(
        config,
        yaml.replace(
            "rule_files:",
            "  - job_name: node\n    static_configs: [{targets: ['127.0.0.1:"
                + port
                + "']}]\nrule_files:"));
    HttpResponse<String> reload =
        HTTP.send(
            HttpRequest.newBuilder(server.uri("/-/reload"))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(reload.statusCode()).as("reload: %s", reload.body()).isEqualTo(200);
    nodeScrapedSince = System.currentTimeMillis();
    importTransformSeries();
  }

  @AfterAll
  void stop() throws Exception {
    if (browser != null) {
      browser.close();
    }
    if (server != null) {
      server.close();
    }
    if (nodeExporter != null) {
      nodeExporter.destroy();
      if (!nodeExporter.waitFor(20, TimeUnit.SECONDS)) {
        nodeExporter.destroyForcibly();
      }
    }
  }

  @AfterEach
  void noConsoleErrorsNorFailedRequests() {
    List<String> errors = browser.errors(allowedErrors);
    allowedErrors = null;
    assertThat(errors).as("console errors and failed requests").isEmpty();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @Test
  void dcgmExportersDashboardDrawsEveryPanelThatHasData() throws Exception {
    browser.open(server.uri("/dashboards").toString());
    browser.await("tr.dash-row-item[data-uid='Oxed_c6Wz']");
    assertThat(browser.driver.findElement(By.cssSelector("table[data-table=dashboards]")).getText())
        .contains("NVIDIA DCGM Exporter Dashboard", "LLM training", "GPU cluster");
    browser.screenshot("dashboard-list");

    String query = lastMinutes(60);
    browser.open(server.uri("/dashboards/Oxed_c6Wz?" + query).toString());
    awaitPanels();
    // The variables resolved on the fleet's series: every instance and GPU, All selected.
    WebElement instance = browser.await("[data-var=instance]");
    assertThat(instance.getDomProperty("textContent")).contains("node-0:9400", "node-1:9400");
    assertThat(browser.await("[data-var=gpu]").getDomAttribute("data-selected"))
        .isEqualTo("$__all");
    int drawn = assertPanelsWithDataDrawn("Oxed_c6Wz", query);
    assertThat(drawn).as("dcgm panels drawn").isGreaterThanOrEqualTo(6);
    assertNoPanelsOverlap();
    WebElement temperature = panel("GPU Temperature");
    assertThat(Integer.parseInt(temperature.getDomAttribute("data-series"))).isGreaterThan(8);
    assertThat(panel("Tensor Core Utilization").getText()).contains("No data");
    saveScreenshot("dashboard-dcgm");

    // Choosing one instance narrows the GPUs' panels to its eight GPUs.
    browser.open(
        server.uri("/dashboards/Oxed_c6Wz?" + query + "&var-instance=node-1:9400").toString());
    awaitPanels();
    assertThat(panel("GPU Temperature").getDomAttribute("data-series")).isEqualTo("8");
    assertThat(browser.await("[data-var=instance]").getDomAttribute("data-selected"))
        .isEqualTo("node-1:9400");

    // A quick range is written into the URL as Grafana writes it.
    new Select(browser.driver.findElement(By.cssSelector("select[aria-label='Time range']")))
        .selectByVisibleText("Last 15 minutes");
    new WebDriverWait(browser.driver, DRAW_TIMEOUT)
        .until(d -> d.getCurrentUrl().contains("from=now-15m&to=now"));
    awaitPanels();
    assertThat(panel("GPU Temperature").getDomAttribute("data-state")).isEqualTo("ready");
    // A drag across a time series zooms: the range becomes epoch milliseconds.
    WebElement over = panel("GPU Temperature").findElement(By.cssSelector(".u-over"));
    new Actions(browser.driver)
        .moveToElement(over, -over.getSize().width / 4, 0)
        .clickAndHold()
        .moveByOffset(over.getSize().width / 3, 0)
        .release()
        .perform();
    new WebDriverWait(browser.driver, DRAW_TIMEOUT)
        .until(d -> d.getCurrentUrl().matches(".*from=\\d{13}&to=\\d{13}.*"));
    awaitPanels();
    assertThat(panel("GPU Temperature").getDomAttribute("data-state")).isEqualTo("ready");
  }

  @Test
  void nodeExporterFullDrawsOnARealNodeExporter() throws Exception {
    awaitScraped("count_over_time(node_load1{job=\"node\"}[5m]) >= 12");
    String document = new String(resource(NODE_DASHBOARD).readAllBytes(), StandardCharsets.UTF_8);
    HttpResponse<String> imported =
        HTTP.send(
            HttpRequest.newBuilder(server.uri("/api/v1/dashboards/import"))
                .POST(HttpRequest.BodyPublishers.ofString(document))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(imported.statusCode()).as(imported.body()).isEqualTo(200);
    String uid = JSON.readTree(imported.body()).path("data").path("uid").asText();
    assertThat(uid).isEqualTo("rYdddlPWk");

    // The range the server has scraped node_exporter for, so that the panels fill their width.
    long now = System.currentTimeMillis();
    String query = "from=" + (nodeScrapedSince - 5_000) + "&to=" + now + "&refresh=off";
    browser.open(server.uri("/dashboards/" + uid + "?" + query).toString());
    awaitPanels();
    assertThat(browser.await("[data-var=node]").getDomAttribute("data-selected"))
        .startsWith("127.0.0.1:");
    saveScreenshot("dashboard-node-exporter");
    // Every collapsed row opened, so that every panel runs its queries.
    for (int i = 0; i < 40; i++) {
      List<WebElement> closed =
          browser.driver.findElements(By.cssSelector("button.dash-row[aria-expanded=false]"));
      if (closed.isEmpty()) {
        break;
      }
      closed.get(0).click();
    }
    awaitPanels();
    int drawn = assertPanelsWithDataDrawn(uid, query);
    assertThat(drawn).as("node exporter panels drawn").isGreaterThanOrEqualTo(60);
    assertNoPanelsOverlap();
    browser.screenshot("dashboard-node-exporter-all-rows");
  }

  @Test
  void importByPasteShowsTheReportAndARefusalNamesItsPath() throws Exception {
    browser.open(server.uri("/dashboards").toString());
    WebElement text = browser.await("textarea[name=document]");
    text.sendKeys(
        """
        {"uid": "pasted", "title": "Pasted board", "schemaVersion": 39, "tags": ["paste"],
         "panels": [
          {"id": 1, "type": "timeseries", "title": "Load", "gridPos": {"x": 0, "y": 0, "w": 12, "h": 8},
           "targets": [{"refId": "A", "expr": "node_load1"}], "pluginVersion": "10.0.0",
           "someFutureField": true},
          {"id": 2, "type": "piechart", "title": "Pie", "gridPos": {"x": 12, "y": 0, "w": 12, "h": 8},
           "targets": [{"refId": "A", "expr": "node_load5"}]}]}
        """);
    browser.driver.findElement(By.xpath("//button[text()='Import']")).click();
    WebElement report = browser.await(".dash-report[data-uid=pasted]");
    assertThat(report.getText())
        .contains("Pasted board", "panels", "piechart", "someFutureField", "$.panels[1]");
    assertThat(
            browser
                .driver
                .findElement(By.cssSelector("tr.dash-row-item[data-uid=pasted]"))
                .getText())
        .contains("Pasted board", "paste");
    browser.screenshot("dashboard-import-report");

    // The placeholder says what it is.
    browser.open(server.uri("/dashboards/pasted?refresh=off").toString());
    awaitPanels();
    assertThat(panel("Pie").getDomAttribute("data-state")).isEqualTo("unsupported");
    assertThat(panel("Pie").getText()).contains("piechart", "not drawn by Flightdeck");

    // A document of the wrong shape is refused with the JSON path of what is wrong.
    allowedErrors = Pattern.compile("dashboards/import\\?.*400");
    browser.open(server.uri("/dashboards").toString());
    WebElement again = browser.await("textarea[name=document]");
    again.sendKeys(
        "{\"uid\": \"broken\", \"title\": \"Broken\", \"schemaVersion\": 39,"
            + " \"panels\": [{\"id\": 1, \"type\": \"timeseries\", \"gridPos\": \"left\"}]}");
    browser.driver.findElement(By.xpath("//button[text()='Import']")).click();
    WebElement error = browser.await(".dash-import-error");
    assertThat(error.getText()).contains("Not imported", "$.panels[0].gridPos");
    browser.screenshot("dashboard-import-error");

    // A Perses dashboard in YAML, uploaded as a file, imported and drawn.
    Path yaml = Files.createTempFile("perses-gpus", ".yaml");
    try {
      Files.writeString(
          yaml,
          """
          kind: Dashboard
          metadata: {name: perses-gpus, project: training}
          spec:
            display: {name: GPUs from Perses}
            duration: 1h
            variables:
              - kind: ListVariable
                spec:
                  name: gpu
                  allowMultiple: true
                  allowAllValue: true
                  plugin: {kind: PrometheusLabelValuesVariable, spec: {labelName: gpu, matchers: [DCGM_FI_DEV_GPU_TEMP]}}
            panels:
              temp:
                kind: Panel
                spec:
                  display: {name: Temperature from Perses}
                  plugin: {kind: TimeSeriesChart, spec: {}}
                  queries:
                    - kind: TimeSeriesQuery
                      spec: {plugin: {kind: PrometheusTimeSeriesQuery, spec: {query: 'DCGM_FI_DEV_GPU_TEMP{gpu=~"$gpu"}'}}}
            layouts:
              - kind: Grid
                spec:
                  items:
                    - {x: 0, y: 0, width: 12, height: 8, content: {"$ref": "#/spec/panels/temp"}}
          """);
      browser.open(server.uri("/dashboards").toString());
      browser.await("input[type=file]").sendKeys(yaml.toString());
      new WebDriverWait(browser.driver, DRAW_TIMEOUT)
          .until(
              d ->
                  String.valueOf(
                          d.findElement(By.cssSelector("textarea[name=document]"))
                              .getDomProperty("value"))
                      .contains("kind: Dashboard"));
      browser.driver.findElement(By.xpath("//button[text()='Import']")).click();
      WebElement persesReport = browser.await(".dash-report[data-uid=perses-gpus]");
      assertThat(persesReport.getText()).contains("GPUs from Perses", "perses");
    } finally {
      Files.delete(yaml);
    }
    browser.open(server.uri("/dashboards/perses-gpus?" + lastMinutes(60)).toString());
    awaitPanels();
    WebElement persesPanel = panel("Temperature from Perses");
    assertThat(persesPanel.getDomAttribute("data-state")).isEqualTo("ready");
    assertThat(Integer.parseInt(persesPanel.getDomAttribute("data-series"))).isGreaterThan(8);
  }

  @Test
  void editingAPanelsQuerySavesANewVersion() throws Exception {
    String uid = "flightdeck-gpu-cluster";
    int before = versions(uid).size();
    browser.open(server.uri("/dashboards/" + uid + "?refresh=off").toString());
    awaitPanels();
    assertThat(assertPanelsWithDataDrawn(uid, "refresh=off")).isGreaterThanOrEqualTo(10);
    WebElement temperature = panel("Temperature");
    new Actions(browser.driver).moveToElement(temperature).perform();
    temperature.findElement(By.cssSelector("button.dash-panel-edit")).click();
    WebElement dialog = browser.await("dialog.dash-editor[open]");
    WebElement title = dialog.findElement(By.cssSelector("input[name=title]"));
    title.clear();
    title.sendKeys("Hottest GPU per host");
    WebElement expr = dialog.findElement(By.cssSelector("textarea[name=expr-0]"));
    expr.clear();
    expr.sendKeys("max by (Hostname) (DCGM_FI_DEV_GPU_TEMP{Hostname=~\"$host\"})");
    dialog.findElement(By.cssSelector("input[name=unit]")).clear();
    dialog.findElement(By.cssSelector("input[name=unit]")).sendKeys("celsius");
    dialog.findElement(By.xpath(".//button[text()='Save as new version']")).click();
    WebElement outcome = browser.await(".dash-saved, dialog.dash-editor .error-box");
    assertThat(outcome.getDomAttribute("class")).as(outcome.getText()).contains("dash-saved");
    awaitPanels();
    WebElement edited = panel("Hottest GPU per host");
    assertThat(edited.getDomAttribute("data-state")).isEqualTo("ready");
    // One series per host that reports GPUs: node-0 to node-3.
    assertThat(edited.getDomAttribute("data-series")).isEqualTo("4");
    JsonNode list = versions(uid);
    assertThat(list.size()).isEqualTo(before + 1);
    JsonNode newest = list.get(0);
    for (JsonNode version : list) {
      if (version.path("version").asInt() > newest.path("version").asInt()) {
        newest = version;
      }
    }
    assertThat(newest.path("version").asInt()).isEqualTo(before + 1);
    assertThat(newest.path("author").asText()).isEqualTo("cockpit");
    assertThat(newest.path("message").asText()).contains("Hottest GPU per host");
    JsonNode saved = get("/api/v1/dashboards/" + uid).path("dashboard");
    assertThat(saved.toString()).contains("max by (Hostname) (DCGM_FI_DEV_GPU_TEMP");

    // Choosing one host re-resolves the GPUs chained on it: node-3 has two.
    WebElement host = browser.await("[data-var=host]");
    host.findElement(By.cssSelector("summary")).click();
    host.findElement(By.cssSelector("input[value='node-3']")).click();
    new WebDriverWait(browser.driver, DRAW_TIMEOUT)
        .until(d -> d.getCurrentUrl().contains("var-host=node-3"));
    new WebDriverWait(browser.driver, DRAW_TIMEOUT)
        .withMessage("the GPUs of node-3 only")
        .until(
            d ->
                d.findElements(
                            By.cssSelector(
                                "[data-var=gpu] input[type=checkbox]:not([value='$__all'])"))
                        .size()
                    == 2);
    awaitPanels();
    assertThat(panel("Hottest GPU per host").getDomAttribute("data-series")).isEqualTo("1");

    // graphTooltip 1: the crosshair over one time series shows on the others.
    WebElement utilisation = panel("GPU utilisation");
    new Actions(browser.driver)
        .moveToElement(utilisation.findElement(By.cssSelector(".u-over")))
        .perform();
    assertThat(
            browser.js(
                "const c = document.querySelector('[data-chart=\"SM clock\"] .u-cursor-x');"
                    + "return c ? c.className : 'no cursor: ' + document.querySelector("
                    + "'[data-chart=\"SM clock\"]').outerHTML.slice(0, 300);"))
        .asString()
        .contains("u-cursor-x")
        .doesNotContain("u-off");
  }

  @Test
  void transformationsComputeDifferencesNormalisationAveragesAnomaliesJoinsAndReductions()
      throws Exception {
    String dashboard =
        """
        {"uid": "transforms", "title": "Transforms", "schemaVersion": 39, "graphTooltip": 1,
         "time": {"from": "now-10m", "to": "now"},
         "panels": [
          {"id": 1, "type": "table", "title": "Difference then reduce", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 0, "y": 0, "w": 8, "h": 6},
           "targets": [{"refId": "A", "expr": "transform_probe{series=\\"counter\\"}", "legendFormat": "counter"}],
           "transformations": [{"id": "flightdeck.difference"}, {"id": "reduce", "options": {"reducers": ["max", "min", "mean"]}}]},
          {"id": 2, "type": "stat", "title": "Normalised to first", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 8, "y": 0, "w": 8, "h": 6},
           "options": {"reduceOptions": {"calcs": ["max"]}},
           "fieldConfig": {"defaults": {"decimals": 0}, "overrides": []},
           "targets": [{"refId": "A", "expr": "transform_probe{series=\\"double\\"} / 2 + 1", "legendFormat": "double"}],
           "transformations": [{"id": "flightdeck.normalize", "options": {"mode": "first"}}]},
          {"id": 3, "type": "timeseries", "title": "Anomalies", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 16, "y": 0, "w": 8, "h": 6},
           "targets": [{"refId": "A", "expr": "transform_probe{series=\\"spiky\\"}", "legendFormat": "spiky"}],
           "transformations": [{"id": "flightdeck.movingAverage", "options": {"window": 1}}, {"id": "flightdeck.anomalies"}]},
          {"id": 4, "type": "table", "title": "Joined by time", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 0, "y": 6, "w": 12, "h": 8},
           "targets": [{"refId": "A", "expr": "transform_probe{series=~\\"counter|double\\"}", "legendFormat": "{{series}}"}],
           "transformations": [{"id": "joinByField", "options": {"byField": "Time", "mode": "inner"}}]},
          {"id": 5, "type": "stat", "title": "Moving average of the step", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 12, "y": 6, "w": 12, "h": 8},
           "options": {"reduceOptions": {"calcs": ["lastNotNull"]}},
           "targets": [{"refId": "A", "expr": "transform_probe{series=\\"step\\"}", "legendFormat": "step"}],
           "transformations": [{"id": "calculateField", "options": {"mode": "windowFunctions", "window": {"reducer": "mean", "windowSize": 4}}}]}]}
        """;
    HttpResponse<String> imported =
        HTTP.send(
            HttpRequest.newBuilder(server.uri("/api/v1/dashboards/import?overwrite=true"))
                .POST(HttpRequest.BodyPublishers.ofString(dashboard))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(imported.statusCode()).as(imported.body()).isEqualTo(200);
    // The range in epoch ms, as Grafana's URLs carry it: exactly the 41 points.
    browser.open(
        server
            .uri(
                "/dashboards/transforms?refresh=off&from="
                    + (transformsEnd - 600_000)
                    + "&to="
                    + transformsEnd)
            .toString());
    awaitPanels();
    // counter grows by 10 every 15 s: every difference is 10.
    WebElement diff = panel("Difference then reduce");
    assertThat(diff.findElements(By.cssSelector("tbody td")).stream().map(WebElement::getText))
        .containsExactly("counter", "10", "10", "10");
    // double/2+1 is 1, 2, 3... per point: divided by the first it ends at its point count.
    WebElement normalised = panel("Normalised to first");
    assertThat(Double.parseDouble(value(normalised, ".dash-stat"))).isEqualTo(41.0);
    assertThat(normalised.getText()).contains("41");
    // One spike among constant values: one mark.
    assertThat(panel("Anomalies").getDomAttribute("data-anomalies")).isEqualTo("1");
    // The inner join has one row per shared time, with both series as columns.
    WebElement joined = panel("Joined by time");
    assertThat(joined.findElements(By.cssSelector("thead th")).stream().map(WebElement::getText))
        .containsExactly("Time", "counter", "double");
    assertThat(joined.findElements(By.cssSelector("tbody tr")).size()).isEqualTo(41);
    // The step series is 0 then 8 at the last four points: their mean is 8; of the last four
    // points with one 0 among them it would be 6.
    assertThat(Double.parseDouble(value(panel("Moving average of the step"), ".dash-stat")))
        .isEqualTo(8.0);
    browser.screenshot("dashboard-transforms");
  }

  @Test
  void heatmapTextStateTimelineErrorsRepeatsAndTheStepAxisDraw() throws Exception {
    allowedErrors = Pattern.compile("query_range\\?.*400");
    String dashboard =
        """
        {"uid": "kinds", "title": "Panel kinds", "schemaVersion": 39,
         "panels": [
          {"id": 1, "type": "heatmap", "title": "Latency buckets", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 0, "y": 0, "w": 12, "h": 8},
           "targets": [{"refId": "A", "expr": "sum by (le) (rate(probe_latency_seconds_bucket[1m]))", "format": "heatmap", "legendFormat": "{{le}}"}]},
          {"id": 2, "type": "text", "title": "Runbook", "gridPos": {"x": 12, "y": 0, "w": 12, "h": 8},
           "options": {"mode": "markdown", "content": "# First look\\n**Check** the `probe` series <script>window.hacked = 1</script>\\n\\n- [docs](https://example.com/runbook)\\n- [bad](javascript:window.hacked=2)"}},
          {"id": 3, "type": "state-timeline", "title": "Busy or idle", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 0, "y": 8, "w": 24, "h": 4},
           "fieldConfig": {"defaults": {"mappings": [{"type": "value", "options": {"0": {"text": "idle", "color": "green"}, "8": {"text": "busy", "color": "red"}}}]}, "overrides": []},
           "targets": [{"refId": "A", "expr": "transform_probe{series=\\"step\\"}", "legendFormat": "worker"}]},
          {"id": 4, "type": "timeseries", "title": "Broken query", "gridPos": {"x": 0, "y": 12, "w": 8, "h": 5},
           "targets": [{"refId": "A", "expr": "rate(transform_probe[1m]"}]},
          {"id": 5, "type": "timeseries", "title": "Probe $series", "repeat": "series", "repeatDirection": "h",
           "interval": "15s", "maxDataPoints": 10000, "gridPos": {"x": 8, "y": 12, "w": 8, "h": 5},
           "targets": [{"refId": "A", "expr": "transform_probe{series=\\"$series\\"}"}]},
          {"id": 6, "type": "row", "title": "Bucket $bucket", "repeat": "bucket", "collapsed": false,
           "gridPos": {"x": 0, "y": 17, "w": 24, "h": 1}},
          {"id": 7, "type": "stat", "title": "Count below $bucket", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 0, "y": 18, "w": 6, "h": 3},
           "targets": [{"refId": "A", "expr": "probe_latency_seconds_bucket{le=\\"$bucket\\"}"}]}],
         "templating": {"list": [
          {"name": "series", "type": "query", "query": "label_values(transform_probe, series)",
           "multi": true, "includeAll": true, "current": {"value": ["$__all"]}},
          {"name": "bucket", "type": "custom", "query": "0.1,1", "multi": true,
           "current": {"value": ["0.1", "1"]}}]}}
        """;
    HttpResponse<String> imported =
        HTTP.send(
            HttpRequest.newBuilder(server.uri("/api/v1/dashboards/import?overwrite=true"))
                .POST(HttpRequest.BodyPublishers.ofString(dashboard))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(imported.statusCode()).as(imported.body()).isEqualTo(200);
    browser.open(
        server
            .uri(
                "/dashboards/kinds?refresh=off&from="
                    + (transformsEnd - 600_000)
                    + "&to="
                    + transformsEnd)
            .toString());
    awaitPanels();
    WebElement heatmap = panel("Latency buckets");
    assertThat(heatmap.getDomAttribute("data-state"))
        .as(
            "heatmap; buckets stored: %s",
            get(
                "/api/v1/query?query=count_over_time(probe_latency_seconds_bucket[20m])&time="
                    + transformsEnd / 1000.0))
        .isEqualTo("ready");
    assertThat(heatmap.getDomAttribute("data-series")).isEqualTo("4");
    assertThat(Integer.parseInt(heatmap.getDomAttribute("data-points"))).isGreaterThan(100);
    assertThat(heatmap.findElement(By.cssSelector(".dash-heatmap-labels")).getText())
        .contains("0.1", "0.5", "+Inf");
    // The text is markdown-ish and never markup: no script ran, no javascript: link.
    WebElement text = panel("Runbook");
    assertThat(text.findElement(By.cssSelector(".dash-text h3")).getText()).isEqualTo("First look");
    assertThat(text.findElement(By.cssSelector("strong")).getText()).isEqualTo("Check");
    assertThat(text.findElements(By.cssSelector("script"))).isEmpty();
    assertThat(text.findElements(By.cssSelector("a")))
        .singleElement()
        .satisfies(
            a -> assertThat(a.getDomAttribute("href")).isEqualTo("https://example.com/runbook"));
    assertThat(browser.js("return window.hacked === undefined")).isEqualTo(true);
    WebElement timeline = panel("Busy or idle");
    assertThat(timeline.getDomAttribute("data-series")).isEqualTo("1");
    assertThat(timeline.getDomAttribute("data-points")).isEqualTo("41");
    assertThat(timeline.getText()).contains("worker", "idle");
    // A query the server refuses shows its message in place of the panel.
    WebElement broken = panel("Broken query");
    assertThat(broken.getDomAttribute("data-state")).isEqualTo("error");
    assertThat(broken.getText()).contains("parse error");
    // A repeated panel: one per series (All); a repeated row: one per chosen bucket.
    assertThat(browser.driver.findElements(By.cssSelector("[data-chart^='Probe ']")))
        .extracting(e -> e.getDomAttribute("data-chart"))
        .containsExactlyInAnyOrder("Probe counter", "Probe double", "Probe spiky", "Probe step");
    assertThat(
            browser.driver.findElements(By.cssSelector("section.dash-section[data-row^='Bucket']")))
        .extracting(e -> e.getDomAttribute("data-row"))
        .containsExactly("Bucket 0.1", "Bucket 1");
    assertThat(panel("Count below 1").getDomAttribute("data-state")).isEqualTo("ready");
    assertThat(value(panel("Count below 1"), ".dash-stat")).isEqualTo("320");
    // The four copies of "Probe" fill the line the panel was on: "Broken query", on that line
    // before them, keeps its place and the copies move down below it.
    assertNoPanelsOverlap();
    assertThat(panel("Probe counter").getRect().getY())
        .isGreaterThanOrEqualTo(broken.getRect().getY() + broken.getRect().getHeight());
    browser.screenshot("dashboard-kinds");

    // With one run chosen, the LLM training dashboard draws on the run's steps.
    String run = TrainingFleet.LLAMA;
    browser.open(
        server
            .uri("/dashboards/flightdeck-llm-training?" + lastMinutes(120) + "&var-run=" + run)
            .toString());
    awaitPanels();
    browser.driver.findElement(By.xpath("//a[text()='Steps of " + run + "']")).click();
    new WebDriverWait(browser.driver, DRAW_TIMEOUT)
        .until(d -> d.getCurrentUrl().contains("x=step"));
    awaitPanels();
    WebElement loss = panel("Loss");
    assertThat(loss.getDomAttribute("data-x")).isEqualTo("step");
    assertThat(loss.getDomAttribute("data-state")).isEqualTo("ready");
    assertThat(Integer.parseInt(loss.getDomAttribute("data-points"))).isPositive();
    browser.screenshot("dashboard-llm-training-steps");
  }

  @Test
  void llmTrainingDashboardDrawsEveryRegionOnExportersRealNames() throws Exception {
    String uid = "flightdeck-llm-training";
    String query = lastMinutes(120) + "&var-run=" + TrainingFleet.LLAMA;
    browser.open(server.uri("/dashboards/" + uid + "?" + query).toString());
    awaitPanels();
    // $node is the run's hosts, from its training series' instance without the port; $gpu their
    // GPUs in dcgm-exporter's series.
    WebElement node = browser.await("[data-var=node]");
    assertThat(node.getDomProperty("textContent")).contains("node-0", "node-1");
    assertThat(node.getDomProperty("textContent")).doesNotContain("node-2", "node-3", ":8080");
    assertThat(browser.await("[data-var=gpu]").getDomProperty("textContent")).contains("7");
    int drawn = assertPanelsWithDataDrawn(uid, query);
    Map<String, List<String>> regions =
        Map.of(
            "GPU state", List.of("GPU memory used", "Fullest GPU memory", "GPU utilisation"),
            "Training progress",
                List.of("Step", "Epoch", "Samples per second", "Progress", "Throughput"),
            "Performance curves", List.of("Loss", "Learning rate", "Gradient norm"),
            "System resources", List.of("CPU busy", "Host memory used", "Disk I/O"),
            "Network",
                List.of(
                    "Network receive and transmit", "Samples per second against network receive"));
    List<String> empty = new ArrayList<>();
    regions.forEach(
        (region, titles) -> {
          for (String title : titles) {
            WebElement card = panel(title);
            String points = card.getDomAttribute("data-points");
            if (!"ready".equals(card.getDomAttribute("data-state"))
                || points == null
                || Integer.parseInt(points) <= 0) {
              empty.add(region + " / " + title + ": " + card.getText());
            }
          }
        });
    assertThat(empty).as("panels without data").isEmpty();
    assertThat(drawn).isEqualTo(regions.values().stream().mapToInt(List::size).sum());
    // 2 nodes x 8 GPUs of dcgm-exporter; the loss of the one rank that reports it.
    assertThat(panel("GPU utilisation").getDomAttribute("data-series")).isEqualTo("16");
    assertThat(panel("Loss").getDomAttribute("data-series")).isEqualTo("1");
    assertThat(panel("CPU busy").getDomAttribute("data-series")).isEqualTo("2");
    saveScreenshot("dashboard-llm-training");
  }

  @Test
  void linksCarryTheVariablesAndTimeAndAnnotationsShadeTheTimeSeries() throws Exception {
    String dashboard =
        """
        {"uid": "linked", "title": "Linked", "schemaVersion": 39, "tags": ["links-test"],
         "links": [
          {"type": "link", "title": "Explore $host", "url": "/explore?expr=up", "includeVars": true,
           "keepTime": true},
          {"type": "dashboards", "tags": ["gpu"], "title": "GPU boards"},
          {"type": "link", "title": "sneaky", "url": "javascript:alert(1)"}],
         "annotations": {"list": [
          {"builtIn": 1, "name": "Annotations & Alerts", "enable": true, "type": "dashboard"},
          {"name": "Hot GPUs", "enable": true, "expr": "DCGM_FI_DEV_GPU_TEMP > 82", "step": "30s",
           "titleFormat": "hot {{Hostname}}/{{gpu}}", "iconColor": "red"}]},
         "panels": [
          {"id": 1, "type": "timeseries", "title": "Temperature of $host", "gridPos": {"x": 0, "y": 0, "w": 24, "h": 8},
           "links": [{"title": "Cluster of $host", "url": "/cluster?host=${host}"}],
           "targets": [{"refId": "A", "expr": "DCGM_FI_DEV_GPU_TEMP{Hostname=\\"$host\\"}"}]}],
         "templating": {"list": [
          {"name": "host", "type": "custom", "query": "node-0,node-1", "current": {"value": "node-1"}}]}}
        """;
    HttpResponse<String> imported =
        HTTP.send(
            HttpRequest.newBuilder(server.uri("/api/v1/dashboards/import?overwrite=true"))
                .POST(HttpRequest.BodyPublishers.ofString(dashboard))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(imported.statusCode()).as(imported.body()).isEqualTo(200);
    String query = lastMinutes(60);
    browser.open(server.uri("/dashboards/linked?" + query + "&var-host=node-1").toString());
    awaitPanels();
    WebElement temperature = panel("Temperature of node-1");
    assertThat(temperature.getDomAttribute("data-state")).isEqualTo("ready");
    assertThat(temperature.getDomAttribute("data-annotations"))
        .as("the hot GPU's samples above 82 make an annotation region")
        .isNotNull();
    assertThat(Integer.parseInt(temperature.getDomAttribute("data-annotations"))).isPositive();
    assertThat(
            temperature.findElement(By.cssSelector(".dash-panel-links a")).getDomAttribute("href"))
        .isEqualTo("/cluster?host=node-1");
    List<WebElement> links =
        browser.driver.findElements(By.cssSelector("nav.dash-links > a.dash-link"));
    assertThat(links).hasSize(1);
    assertThat(links.get(0).getText()).isEqualTo("Explore node-1");
    assertThat(links.get(0).getDomAttribute("href"))
        .startsWith("/explore?expr=up&")
        .contains("var-host=node-1", "from=", "to=");
    assertThat(browser.driver.findElement(By.cssSelector("nav.dash-links")).getText())
        .as("a javascript: URL is shown, never linked")
        .contains("sneaky");
    new WebDriverWait(browser.driver, Duration.ofSeconds(10))
        .until(d -> !d.findElements(By.cssSelector("[data-link-tags=gpu] a")).isEmpty());
    assertThat(
            browser.driver.findElements(By.cssSelector("[data-link-tags=gpu] a")).stream()
                .map(WebElement::getText)
                .toList())
        .as("the dashboards tagged gpu")
        .contains("GPU cluster");
    browser.screenshot("dashboard-links-annotations");
  }

  @Test
  void versionsListTheEditsAndRestoringTheFirstBringsItsTitleBack() throws Exception {
    // A copy of the GPU cluster dashboard of its own (another test edits that one), its SM clock
    // panel untouched by any other test.
    JsonNode exported =
        JSON.readTree(
            server.get("/api/v1/dashboards/flightdeck-gpu-cluster/export?format=grafana").body());
    ((com.fasterxml.jackson.databind.node.ObjectNode) exported)
        .put("uid", "versions-probe")
        .put("title", "Versions probe");
    HttpResponse<String> imported =
        HTTP.send(
            HttpRequest.newBuilder(server.uri("/api/v1/dashboards/import"))
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"dashboard\": " + exported + ", \"author\": \"ana\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(imported.statusCode()).as(imported.body()).isEqualTo(200);
    String uid = "versions-probe";
    browser.open(server.uri("/dashboards/" + uid + "?refresh=off").toString());
    awaitPanels();
    WebElement clock = panel("SM clock");
    new Actions(browser.driver).moveToElement(clock).perform();
    clock.findElement(By.cssSelector("button.dash-panel-edit")).click();
    WebElement dialog = browser.await("dialog.dash-editor[open]");
    WebElement title = dialog.findElement(By.cssSelector("input[name=title]"));
    title.clear();
    title.sendKeys("Edited SM clock");
    dialog.findElement(By.xpath(".//button[text()='Save as new version']")).click();
    browser.await(".dash-saved");
    awaitPanels();
    assertThat(panel("Edited SM clock").getDomAttribute("data-state")).isEqualTo("ready");

    browser.js("window.scrollTo(0, 0)");
    browser.driver.findElement(By.cssSelector("button.dash-versions-toggle")).click();
    new WebDriverWait(browser.driver, DRAW_TIMEOUT)
        .withMessage("two versions listed")
        .until(
            d -> d.findElements(By.cssSelector("table[data-table=versions] tbody tr")).size() == 2);
    WebElement second = browser.await("table[data-table=versions] tr[data-version='2']");
    assertThat(second.getText()).contains("cockpit", "Edited SM clock", ".title");
    WebElement first = browser.await("table[data-table=versions] tr[data-version='1']");
    assertThat(first.getText()).contains("ana", "created");
    assertThat(second.findElements(By.cssSelector("button[data-restore]"))).isEmpty();
    browser.screenshot("dashboard-versions");

    first.findElement(By.cssSelector("button[data-restore='1']")).click();
    new WebDriverWait(browser.driver, DRAW_TIMEOUT)
        .withMessage("a third version, the restore")
        .until(
            d -> d.findElements(By.cssSelector("table[data-table=versions] tbody tr")).size() == 3);
    awaitPanels();
    new WebDriverWait(browser.driver, DRAW_TIMEOUT)
        .withMessage("the panel's first title back")
        .until(
            d -> !d.findElements(By.cssSelector(".dash-panel[data-chart='SM clock']")).isEmpty());
    assertThat(
            browser.driver.findElements(
                By.cssSelector(".dash-panel[data-chart='Edited SM clock']")))
        .isEmpty();
    assertThat(browser.await("table[data-table=versions] tr[data-version='3']").getText())
        .contains("restored version 1", "cockpit");
    JsonNode newest = versions(uid).get(0);
    assertThat(newest.path("version").asInt()).isEqualTo(3);
    assertThat(get("/api/v1/dashboards/" + uid).path("dashboard").toString())
        .doesNotContain("Edited SM clock");
  }

  /** The last minutes as epoch ms, as Grafana's URLs carry a range, without auto refresh. */
  private static String lastMinutes(int minutes) {
    long now = System.currentTimeMillis();
    return "from=" + (now - minutes * 60_000L) + "&to=" + now + "&refresh=off";
  }

  private static String value(WebElement panel, String css) {
    return panel.findElement(By.cssSelector(css)).getDomAttribute("data-value");
  }

  /** Known series for the transforms: 41 points 15 s apart, ending at the last whole 15 s. */
  private void importTransformSeries() throws Exception {
    long end = System.currentTimeMillis() / 15_000 * 15_000 - 15_000;
    transformsEnd = end;
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 41; i++) {
      long t = end - (40 - i) * 15_000L;
      text.append("transform_probe{series=\"counter\"} ")
          .append(10 * i)
          .append(' ')
          .append(t)
          .append('\n');
      text.append("transform_probe{series=\"double\"} ")
          .append(2 * i)
          .append(' ')
          .append(t)
          .append('\n');
      text.append("transform_probe{series=\"spiky\"} ")
          .append(i == 20 ? 100 : 5 + (i % 3))
          .append(' ')
          .append(t)
          .append('\n');
      text.append("transform_probe{series=\"step\"} ")
          .append(i >= 37 ? 8 : 0)
          .append(' ')
          .append(t)
          .append('\n');
    }
    // A classic histogram: cumulative buckets counting 1, 3, 4 and 4 more requests a point.
    String[] le = {"0.1", "0.5", "1", "+Inf"};
    int[] perPoint = {1, 4, 8, 12};
    for (int b = 0; b < le.length; b++) {
      for (int i = 0; i < 41; i++) {
        text.append("probe_latency_seconds_bucket{le=\"")
            .append(le[b])
            .append("\"} ")
            .append(perPoint[b] * i)
            .append(' ')
            .append(end - (40 - i) * 15_000L)
            .append('\n');
      }
    }
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(server.uri("/api/v1/import/prometheus"))
                .POST(HttpRequest.BodyPublishers.ofString(text.toString()))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode() / 100).as(response.body()).isEqualTo(2);
  }

  private WebElement panel(String title) {
    return browser.chart(title);
  }

  /** Checks that no two panel cards on the page share any pixel, as Grafana's grid never does. */
  private void assertNoPanelsOverlap() {
    @SuppressWarnings("unchecked")
    List<String> overlapping =
        (List<String>)
            browser.js(
                "const r=[...document.querySelectorAll('.dash-panel[data-chart]')]"
                    + ".map(e=>[e.dataset.chart,e.getBoundingClientRect()]);const out=[];"
                    + "r.forEach(([n,a],i)=>r.slice(i+1).forEach(([m,b])=>{"
                    + "if(a.left<b.right-0.5&&b.left<a.right-0.5"
                    + "&&a.top<b.bottom-0.5&&b.top<a.bottom-0.5)"
                    + "out.push(n+' and '+m)}));return out;");
    assertThat(overlapping).as("panels that overlap").isEmpty();
  }

  /** Waits until no panel is loading any more. */
  private void awaitPanels() {
    new WebDriverWait(browser.driver, DRAW_TIMEOUT)
        .withMessage(() -> "panels still loading: " + browser.chartStates())
        .until(
            d ->
                (Boolean)
                    browser.js(
                        "const c=[...document.querySelectorAll('.dash-panel[data-chart]')];"
                            + "return c.length>0&&c.every(e=>e.dataset.state!=='loading'"
                            + "&&!e.classList.contains('is-loading'));"));
  }

  /**
   * Runs every panel's queries on the API (as the queries endpoint gives them for the page's range
   * and variables) and checks that each panel with data is drawn with points, and that no panel
   * shows an error. Answers how many panels are drawn.
   */
  private int assertPanelsWithDataDrawn(String uid, String query) throws Exception {
    JsonNode answer = get("/api/v1/dashboards/" + uid + "/queries?" + apiRange(query));
    Set<String> withData = new HashSet<>();
    for (JsonNode panel : answer.path("panels")) {
      for (JsonNode q : panel.path("queries")) {
        if (!q.path("hide").asBoolean() && hasData(q)) {
          withData.add(panel.path("id").asText());
        }
      }
    }
    @SuppressWarnings("unchecked")
    List<Map<String, String>> cards =
        (List<Map<String, String>>)
            browser.js(
                "return [...document.querySelectorAll('.dash-panel[data-chart]')].map(e=>({"
                    + "id:e.dataset.panelId,title:e.dataset.chart,kind:e.dataset.kind,"
                    + "state:e.dataset.state,points:e.dataset.points||'',error:e.dataset.error||''}))");
    List<String> problems = new ArrayList<>();
    int drawn = 0;
    for (Map<String, String> card : cards) {
      if ("error".equals(card.get("state"))) {
        problems.add(card.get("title") + ": error " + card.get("error"));
      } else if (withData.contains(card.get("id"))
          && !"text".equals(card.get("kind"))
          && !"unsupported".equals(card.get("kind"))) {
        if (!"ready".equals(card.get("state")) || Integer.parseInt(card.get("points")) <= 0) {
          problems.add(card.get("title") + ": has data but is " + card.get("state"));
        } else {
          drawn++;
        }
      }
    }
    assertThat(problems).as("panels (%d with data)", withData.size()).isEmpty();
    return drawn;
  }

  /** The page's from and to (epoch ms) as the API's seconds. */
  private static String apiRange(String pageQuery) {
    StringBuilder out = new StringBuilder();
    for (String part : pageQuery.split("&")) {
      String[] kv = part.split("=", 2);
      if (kv[0].equals("from") || kv[0].equals("to")) {
        out.append(out.isEmpty() ? "" : "&")
            .append(kv[0])
            .append('=')
            .append(Long.parseLong(kv[1]) / 1000.0);
      } else if (kv[0].startsWith("var-")) {
        out.append(out.isEmpty() ? "" : "&").append(part);
      }
    }
    return out.toString();
  }

  private boolean hasData(JsonNode q) throws Exception {
    String expr = URLEncoder.encode(q.path("expr").asText(), StandardCharsets.UTF_8);
    JsonNode data =
        q.path("instant").asBoolean() && !q.path("range").asBoolean()
            ? get("/api/v1/query?query=" + expr + "&time=" + q.path("end").asText())
            : get(
                "/api/v1/query_range?query="
                    + expr
                    + "&start="
                    + q.path("start").asText()
                    + "&end="
                    + q.path("end").asText()
                    + "&step="
                    + q.path("step").asText());
    if ("scalar".equals(data.path("resultType").asText())) {
      return true;
    }
    for (JsonNode series : data.path("result")) {
      if (series.has("value") || series.path("values").size() > 0) {
        return true;
      }
    }
    return false;
  }

  private JsonNode versions(String uid) throws Exception {
    return get("/api/v1/dashboards/" + uid + "/versions");
  }

  private JsonNode get(String path) throws Exception {
    HttpResponse<String> response = server.get(path);
    JsonNode body = JSON.readTree(response.body());
    assertThat(body.path("status").asText())
        .as("%s: %s", path, response.body())
        .isEqualTo("success");
    return body.path("data");
  }

  private void awaitScraped(String expr) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    String path = "/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8);
    while (get(path).path("result").isEmpty()) {
      assertThat(System.nanoTime()).as("node_exporter scraped: %s", expr).isLessThan(deadline);
      Thread.sleep(1000);
    }
  }

  private static InputStream resource(String name) {
    InputStream in = DashboardPagesBrowserTest.class.getResourceAsStream(name);
    assertThat(in).as("test resource %s", name).isNotNull();
    return in;
  }

  /** Under target always; into docs/screenshots too with -Dflightdeck.screenshots=docs. */
  private void saveScreenshot(String name) throws IOException {
    browser.screenshot(name);
    if (!"docs".equals(System.getProperty("flightdeck.screenshots"))) {
      return;
    }
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve("mvnw"))) {
      dir = dir.getParent();
    }
    assertThat(dir).as("the repository root (a folder with mvnw)").isNotNull();
    browser.viewportScreenshot(dir.resolve("docs").resolve("screenshots"), name);
  }
}
