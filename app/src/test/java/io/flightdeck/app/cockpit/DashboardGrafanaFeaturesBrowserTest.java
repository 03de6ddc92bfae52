package io.flightdeck.app.cockpit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Grafana's field config, transformations, computed heatmaps and time zones in a real Chromium
 * against a real server holding known series (a = i mod 5, b = 10 i, c = -3 at 41 points 15 s
 * apart): the panel editor changes thresholds, overrides and transformations into new versions that
 * are drawn; byValue overrides; every calculateField mode; heatmaps that bucket plain series; the
 * dashboard's time zone and the URL's timezone=. No console error and no failed request.
 * Screenshots: target/cockpit-screenshots/dashboard-grafana-*.png.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DashboardGrafanaFeaturesBrowserTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private static final Duration DRAW_TIMEOUT = Duration.ofSeconds(60);
  private static final String GREEN = "rgb(63, 185, 80)";
  private static final String BLUE = "rgb(78, 161, 255)";
  private static final String RED = "rgb(229, 83, 75)";

  private CockpitServer server;
  private Browser browser;
  private Pattern allowedErrors;

  /** The last moment of the probe series, in epoch ms (a whole 15 s). */
  private long end;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    browser = new Browser();
    server = CockpitServer.start(dir);
    end = System.currentTimeMillis() / 15_000 * 15_000 - 15_000;
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 41; i++) {
      long t = end - (40 - i) * 15_000L;
      text.append("gf_probe{series=\"a\"} ").append(i % 5).append(' ').append(t).append('\n');
      text.append("gf_probe{series=\"b\"} ").append(10 * i).append(' ').append(t).append('\n');
      text.append("gf_probe{series=\"c\"} -3 ").append(t).append('\n');
    }
    HttpResponse<String> response = post("/api/v1/import/prometheus", text.toString());
    assertThat(response.statusCode() / 100).as(response.body()).isEqualTo(2);
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
  void noConsoleErrorsNorFailedRequests() {
    List<String> errors = browser.errors(allowedErrors);
    allowedErrors = null;
    assertThat(errors).as("console errors and failed requests").isEmpty();
  }

  @Test
  void theEditorChangesThresholdsOverridesAndTransformationsIntoNewVersionsThatAreDrawn()
      throws Exception {
    importDashboard(
        """
        {"uid": "gf-editing", "title": "Editing", "schemaVersion": 39,
         "panels": [
          {"id": 1, "type": "stat", "title": "Last of b", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 0, "y": 0, "w": 6, "h": 6},
           "options": {"reduceOptions": {"calcs": ["lastNotNull"]}, "colorMode": "value"},
           "fieldConfig": {"defaults": {"thresholds": {"mode": "absolute", "steps": [{"color": "green", "value": null}]}}, "overrides": []},
           "targets": [{"refId": "A", "expr": "gf_probe{series=\\"b\\"}", "legendFormat": "b"}]},
          {"id": 2, "type": "timeseries", "title": "All probes", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 6, "y": 0, "w": 12, "h": 8},
           "options": {"legend": {"displayMode": "list", "calcs": ["max"]}},
           "targets": [{"refId": "A", "expr": "gf_probe", "legendFormat": "{{series}}"}]},
          {"id": 3, "type": "stat", "title": "Transformed", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 18, "y": 0, "w": 6, "h": 6},
           "options": {"reduceOptions": {"calcs": ["lastNotNull"]}},
           "targets": [{"refId": "A", "expr": "gf_probe{series=\\"b\\"}", "legendFormat": "b"}]}]}
        """);
    String uid = "gf-editing";
    int versions = versions(uid);
    openRange(uid, "");
    assertThat(statColour("Last of b")).isEqualTo(GREEN);

    // Thresholds: two steps added, their values and a colour changed; sorted on save.
    WebElement dialog = edit("Last of b");
    click(dialog, "Add threshold");
    type(dialog, "threshold-value-1", "500");
    click(dialog, "Add threshold");
    type(dialog, "threshold-value-2", "300");
    type(dialog, "threshold-color-2", "blue");
    save(dialog, ++versions);
    assertThat(statColour("Last of b")).as("400 is past the step at 300").isEqualTo(BLUE);
    JsonNode steps = panelModel(uid, "1").path("fieldConfig").path("defaults").path("thresholds");
    assertThat(steps.path("steps").toString())
        .isEqualTo(
            "[{\"color\":\"green\",\"value\":null},{\"color\":\"blue\",\"value\":300},"
                + "{\"color\":\"red\",\"value\":500}]");

    // Percentage mode with the step at 300 removed and red at 60: 400 is 40 % of an override's
    // max of 1000, below 60, so green (absolute, it would be red).
    dialog = edit("Last of b");
    new Select(field(dialog, "thresholds-mode")).selectByValue("percentage");
    click(dialog, "Remove threshold 1");
    type(dialog, "threshold-value-1", "60");
    click(dialog, "Add override");
    type(dialog, "override-0-options", "b");
    click(dialog, "Add property to override 0");
    new Select(field(dialog, "override-0-prop-0-id")).selectByValue("max");
    type(dialog, "override-0-prop-0", "1000");
    save(dialog, ++versions);
    assertThat(statColour("Last of b")).isEqualTo(GREEN);
    JsonNode saved = panelModel(uid, "1").path("fieldConfig");
    assertThat(saved.path("defaults").path("thresholds").path("mode").asText())
        .isEqualTo("percentage");
    assertThat(saved.path("overrides").toString())
        .isEqualTo(
            "[{\"matcher\":{\"id\":\"byName\",\"options\":\"b\"},"
                + "\"properties\":[{\"id\":\"max\",\"value\":1000}]}]");

    // Overrides on the time series: by regex a display name, by type a unit, by value (max > 100:
    // b only) the right axis, a colour, another unit and decimals.
    dialog = edit("All probes");
    click(dialog, "Add override");
    new Select(field(dialog, "override-0-matcher")).selectByValue("byRegexp");
    type(dialog, "override-0-options", "a|c");
    click(dialog, "Add property to override 0");
    new Select(field(dialog, "override-0-prop-0-id")).selectByValue("displayName");
    type(dialog, "override-0-prop-0", "small ${__field.name}");
    click(dialog, "Add override");
    new Select(field(dialog, "override-1-matcher")).selectByValue("byType");
    click(dialog, "Add property to override 1");
    type(dialog, "override-1-prop-0", "celsius");
    click(dialog, "Add override");
    new Select(field(dialog, "override-2-matcher")).selectByValue("byValue");
    new Select(field(dialog, "override-2-reducer")).selectByValue("max");
    new Select(field(dialog, "override-2-op")).selectByValue("gt");
    type(dialog, "override-2-value", "100");
    click(dialog, "Add property to override 2");
    new Select(field(dialog, "override-2-prop-0-id")).selectByValue("custom.axisPlacement");
    new Select(field(dialog, "override-2-prop-0")).selectByValue("right");
    click(dialog, "Add property to override 2");
    new Select(field(dialog, "override-2-prop-1-id")).selectByValue("color");
    type(dialog, "override-2-prop-1", "blue");
    click(dialog, "Add property to override 2");
    type(dialog, "override-2-prop-2", "percent");
    click(dialog, "Add property to override 2");
    new Select(field(dialog, "override-2-prop-3-id")).selectByValue("decimals");
    type(dialog, "override-2-prop-3", "1");
    browser.screenshot("dashboard-grafana-editor");
    save(dialog, ++versions);
    WebElement probes = panel("All probes");
    assertThat(probes.getDomAttribute("data-series")).isEqualTo("3");
    String legend = probes.findElement(By.cssSelector(".dash-legend")).getText();
    assertThat(legend).contains("small a", "small c", "b Max 400.0%", "-3°C");
    assertThat(probes.findElements(By.cssSelector(".u-axis"))).as("x, left and right").hasSize(3);
    assertThat(
            browser.js(
                "return [...arguments[0].querySelectorAll('.legend-item')].find(e =>"
                    + " e.textContent.startsWith('b ')).querySelector('.swatch').style.background",
                probes))
        .isEqualTo(BLUE);

    // Transformations: calculateField (b * b) added and edited, a moving average added then
    // removed, a difference added and moved before it: the difference of b is 10, squared 100
    // (in the other order, 400² - 390² = 7900).
    assertThat(statValue("Transformed")).isEqualTo("400");
    dialog = edit("Transformed");
    click(dialog, "Add transformation");
    new Select(field(dialog, "t-0-mode")).selectByValue("binary");
    type(dialog, "t-0-binary.left", "b");
    new Select(field(dialog, "t-0-binary.operator")).selectByValue("*");
    type(dialog, "t-0-binary.right", "b");
    type(dialog, "t-0-alias", "b squared");
    field(dialog, "t-0-replaceFields").click();
    new Select(field(dialog, "add-transformation")).selectByValue("flightdeck.movingAverage");
    click(dialog, "Add transformation");
    new Select(field(dialog, "add-transformation")).selectByValue("flightdeck.difference");
    click(dialog, "Add transformation");
    click(dialog, "Remove transformation 2");
    click(dialog, "Move transformation 2 up");
    browser.js("arguments[0].querySelector('.dash-transforms').scrollIntoView()", dialog);
    browser.screenshot("dashboard-grafana-editor-transformations");
    save(dialog, ++versions);
    assertThat(statValue("Transformed")).isEqualTo("100");
    JsonNode transformations = panelModel(uid, "3").path("transformations");
    assertThat(transformations).hasSize(2);
    assertThat(transformations.get(0).path("id").asText()).isEqualTo("flightdeck.difference");
    assertThat(transformations.get(1).path("options").toString())
        .isEqualTo(
            "{\"mode\":\"binary\",\"binary\":{\"left\":\"b\",\"operator\":\"*\",\"right\":\"b\"},"
                + "\"alias\":\"b squared\",\"replaceFields\":true}");
    browser.screenshot("dashboard-grafana-edited");

    // A regex that does not parse is refused by the editor, naming it; nothing is saved.
    dialog = edit("All probes");
    type(dialog, "override-0-options", "a|(c");
    dialog.findElement(By.xpath(".//button[text()='Save as new version']")).click();
    assertThat(browser.await("dialog.dash-editor .error-box").getText())
        .contains("override 1", "a|(c");
    dialog.findElement(By.xpath(".//button[text()='Cancel']")).click();
    assertThat(versions(uid)).isEqualTo(versions);
  }

  @Test
  void byValueOverridesMatchOnTheirReducerAndComparison() throws Exception {
    importDashboard(
        """
        {"uid": "gf-byvalue", "title": "By value", "schemaVersion": 39,
         "panels": [
          {"id": 1, "type": "stat", "title": "Named by value", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 0, "y": 0, "w": 24, "h": 6},
           "options": {"reduceOptions": {"calcs": ["lastNotNull"]}, "textMode": "value_and_name"},
           "fieldConfig": {"defaults": {}, "overrides": [
             {"matcher": {"id": "byValue", "options": {"reducer": "max", "op": "gte", "value": 400}},
              "properties": [{"id": "displayName", "value": "peak ${__field.labels.series}"}]},
             {"matcher": {"id": "byValue", "options": {"reducer": "mean", "op": "lt", "value": 0}},
              "properties": [{"id": "displayName", "value": "below zero"}]},
             {"matcher": {"id": "byValue", "options": {"reducer": "last", "op": "eq", "value": 0}},
              "properties": [{"id": "displayName", "value": "ends at zero"}]},
             {"matcher": {"id": "byValue", "options": {"reducer": "min", "op": "neq", "value": 0}},
              "properties": [{"id": "decimals", "value": 2}]},
             {"matcher": {"id": "byValue", "options": {"reducer": "mean", "op": "lte", "value": 2}},
              "properties": [{"id": "unit", "value": "percent"}]},
             {"matcher": {"id": "byValue", "options": {"reduce": "max", "op": "gt", "value": 1000}},
              "properties": [{"id": "displayName", "value": "never"}]}]},
           "targets": [{"refId": "A", "expr": "gf_probe", "legendFormat": "{{series}}"}]}]}
        """);
    openRange("gf-byvalue", "");
    WebElement stat = panel("Named by value");
    Map<String, String> shown = new LinkedHashMap<>();
    for (WebElement tile : stat.findElements(By.cssSelector(".dash-stat"))) {
      shown.put(
          tile.findElement(By.cssSelector(".dash-stat-name")).getText(),
          tile.findElement(By.cssSelector(".dash-stat-value")).getText());
    }
    // a: last 0, mean 1.95 (percent); b: max 400; c: mean -3, min -3 (two decimals, percent).
    assertThat(shown)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("ends at zero", "0%", "peak b", "400", "below zero", "-3.00%"));
    browser.screenshot("dashboard-grafana-byvalue");
  }

  @Test
  void calculateFieldComputesEveryMode() throws Exception {
    importDashboard(
        """
        {"uid": "gf-calculate", "title": "Calculated fields", "schemaVersion": 39,
         "panels": [
          {"id": 1, "type": "table", "title": "Every mode", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 0, "y": 0, "w": 12, "h": 16},
           "targets": [{"refId": "A", "expr": "gf_probe", "legendFormat": "{{series}}"}],
           "transformations": [
            {"id": "calculateField", "options": {"mode": "binary", "binary": {"left": "b", "operator": "+", "right": "c"}}},
            {"id": "calculateField", "options": {"mode": "binary", "binary": {"left": {"fixed": "b"}, "operator": "/", "right": "4"}, "alias": "quarter"}},
            {"id": "calculateField", "options": {"mode": "binary", "binary": {"left": "b", "operator": "/", "right": "3"}, "alias": "third"}},
            {"id": "calculateField", "options": {"mode": "unary", "unary": {"operator": "floor", "fieldName": "third"}}},
            {"id": "calculateField", "options": {"mode": "unary", "unary": {"operator": "ceil", "fieldName": "third"}}},
            {"id": "calculateField", "options": {"mode": "unary", "unary": {"operator": "abs", "fieldName": "c"}}},
            {"id": "calculateField", "options": {"mode": "unary", "unary": {"operator": "exp", "fieldName": "a"}}},
            {"id": "calculateField", "options": {"mode": "unary", "unary": {"operator": "ln", "fieldName": "quarter"}}},
            {"id": "calculateField", "options": {"mode": "reduceRow", "reduce": {"reducer": "sum", "include": ["a", "b", "c"]}, "alias": "row sum"}},
            {"id": "calculateField", "options": {"mode": "reduceRow", "reduce": {"reducer": "mean", "include": ["a", "b"]}, "alias": "row mean"}},
            {"id": "calculateField", "options": {"mode": "reduceRow", "reduce": {"reducer": "max"}}},
            {"id": "calculateField", "options": {"mode": "index"}},
            {"id": "calculateField", "options": {"mode": "cumulativeFunctions", "cumulative": {"field": "a", "reducer": "sum"}}},
            {"id": "calculateField", "options": {"mode": "windowFunctions", "window": {"field": "b", "reducer": "mean", "windowSize": 3}, "alias": "trailing"}},
            {"id": "calculateField", "options": {"mode": "windowFunctions", "window": {"field": "b", "reducer": "mean", "windowSize": 3, "windowAlignment": "centered"}, "alias": "centered"}},
            {"id": "calculateField", "options": {"mode": "windowFunctions", "window": {"field": "c", "reducer": "stdDev", "windowSize": 5}, "alias": "c spread"}},
            {"id": "calculateField", "options": {"mode": "binary", "binary": {"left": "nothing", "operator": "*", "right": "b"}}},
            {"id": "reduce", "options": {"reducers": ["lastNotNull"]}}]},
          {"id": 2, "type": "stat", "title": "Only the sum", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 12, "y": 0, "w": 6, "h": 6},
           "options": {"reduceOptions": {"calcs": ["lastNotNull"]}},
           "targets": [{"refId": "A", "expr": "gf_probe", "legendFormat": "{{series}}"}],
           "transformations": [{"id": "calculateField", "options": {"mode": "binary", "binary": {"left": "a", "operator": "+", "right": "b"}, "replaceFields": true}}]}]}
        """);
    openRange("gf-calculate", "");
    WebElement table = panel("Every mode");
    Map<String, String> last = new LinkedHashMap<>();
    for (WebElement row : table.findElements(By.cssSelector("tbody tr"))) {
      List<WebElement> cells = row.findElements(By.cssSelector("td"));
      last.put(cells.get(0).getText(), cells.get(1).getText());
    }
    // At the last point a = 0, b = 400, c = -3.
    assertThat(last)
        .containsExactly(
            Map.entry("a", "0"),
            Map.entry("b", "400"),
            Map.entry("c", "-3"),
            Map.entry("b + c", "397"),
            Map.entry("quarter", "100"),
            Map.entry("third", "133"),
            Map.entry("floor(third)", "133"),
            Map.entry("ceil(third)", "134"),
            Map.entry("abs(c)", "3"),
            Map.entry("exp(a)", "1"),
            Map.entry("ln(quarter)", "4.61"),
            Map.entry("row sum", "397"),
            Map.entry("row mean", "200"),
            Map.entry("Max", "400"),
            Map.entry("Row", "40"),
            // a sums 0+1+2+3+4 eight times, then 0.
            Map.entry("Cumulative Total", "80"),
            Map.entry("trailing", "390"),
            Map.entry("centered", "395"),
            Map.entry("c spread", "0"));
    // The operand that names no series is said, not guessed.
    assertThat(table.findElement(By.cssSelector(".dash-panel-notes")).getText())
        .contains("calculateField (binary): no series named \"nothing\"");
    WebElement sum = panel("Only the sum");
    assertThat(sum.getDomAttribute("data-series")).isEqualTo("1");
    assertThat(statValue("Only the sum")).isEqualTo("400");
    browser.screenshot("dashboard-grafana-calculate");
  }

  @Test
  void heatmapsComputeTheirOwnBucketsFromPlainSeries() throws Exception {
    importDashboard(
        """
        {"uid": "gf-heatmaps", "title": "Calculated heatmaps", "schemaVersion": 39,
         "panels": [
          {"id": 1, "type": "heatmap", "title": "By size", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 0, "y": 0, "w": 8, "h": 8},
           "options": {"calculate": true, "calculation": {"xBuckets": {"mode": "size", "value": "1m"}, "yBuckets": {"mode": "size", "value": "1"}}},
           "targets": [{"refId": "A", "expr": "gf_probe{series=\\"a\\"}"}]},
          {"id": 2, "type": "heatmap", "title": "By count", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 8, "y": 0, "w": 8, "h": 8},
           "options": {"calculate": true, "calculation": {"xBuckets": {"mode": "count", "value": "5"}, "yBuckets": {"mode": "count", "value": "4"}}},
           "targets": [{"refId": "A", "expr": "gf_probe{series=~\\"a|b\\"}"}]},
          {"id": 3, "type": "heatmap", "title": "On a log scale", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 16, "y": 0, "w": 8, "h": 8},
           "options": {"calculate": true, "calculation": {"yBuckets": {"scale": {"type": "log", "log": 10}}}},
           "targets": [{"refId": "A", "expr": "gf_probe{series=\\"b\\"}"}]}]}
        """);
    openRange("gf-heatmaps", "");
    // a is 0..4: one row per value, eight or nine points in each, every point counted.
    WebElement size = panel("By size");
    assertThat(size.getDomAttribute("data-state")).isEqualTo("ready");
    assertThat(size.getDomAttribute("data-row-totals")).isEqualTo("9,8,8,8,8");
    assertThat(size.getDomAttribute("data-total")).isEqualTo("41");
    // 1m columns hold four consecutive points, four different values: 41 cells, one point each.
    assertThat(size.getDomAttribute("data-points")).isEqualTo("41");
    assertThat(size.findElement(By.cssSelector(".dash-heatmap-labels")).getText())
        .contains("0", "1", "4");
    // a and b from 0 to 400 in four buckets 100 wide: all of a and b's first ten in the first.
    WebElement count = panel("By count");
    assertThat(count.getDomAttribute("data-row-totals")).isEqualTo("51,10,10,11");
    assertThat(count.getDomAttribute("data-series")).isEqualTo("4");
    // b on powers of ten: 10..90 and 100..400; its 0 is off the scale and said so.
    WebElement log = panel("On a log scale");
    assertThat(log.getDomAttribute("data-row-totals")).isEqualTo("9,31");
    assertThat(log.findElement(By.cssSelector(".dash-heatmap-labels")).getText())
        .contains("10", "100");
    assertThat(log.getText()).contains("1 value is at or below 0");
    browser.screenshot("dashboard-grafana-heatmaps");
  }

  @Test
  void theDashboardsTimeZoneDrawsTimesAndTheUrlOverridesIt() throws Exception {
    importDashboard(
        """
        {"uid": "gf-time", "title": "Berlin time", "schemaVersion": 39, "timezone": "Europe/Berlin",
         "panels": [
          {"id": 1, "type": "timeseries", "title": "Probe a", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 0, "y": 0, "w": 12, "h": 8},
           "targets": [{"refId": "A", "expr": "gf_probe{series=\\"a\\"}", "legendFormat": "a"}]},
          {"id": 2, "type": "table", "title": "Times", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 12, "y": 0, "w": 12, "h": 8},
           "targets": [{"refId": "A", "expr": "gf_probe{series=~\\"a|b\\"}", "legendFormat": "{{series}}"}],
           "transformations": [{"id": "joinByField", "options": {"byField": "Time", "mode": "inner"}}]},
          {"id": 3, "type": "heatmap", "title": "Buckets of b", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 0, "y": 8, "w": 12, "h": 6}, "options": {"calculate": true},
           "targets": [{"refId": "A", "expr": "gf_probe{series=\\"b\\"}"}]}]}
        """);
    long from = end - 600_000;
    ZoneId berlin = ZoneId.of("Europe/Berlin");
    openRange("gf-time", "");
    assertTimesIn(berlin, "Europe/Berlin", from);
    // The cursor's time in the legend is a Berlin time of one of the points.
    new Actions(browser.driver)
        .moveToElement(panel("Probe a").findElement(By.cssSelector(".u-over")))
        .perform();
    String cursor = browser.await("[data-chart='Probe a'] .dash-cursor-time").getText();
    long cursorMs =
        LocalDateTime.parse(cursor, DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"))
            .atZone(berlin)
            .toInstant()
            .toEpochMilli();
    assertThat(cursorMs).isBetween(from, end);
    assertThat((cursorMs - from) % 15_000).isZero();
    saveScreenshot("dashboard-grafana-timezone");

    // The URL's timezone= overrides the dashboard's: utc, then an IANA name.
    openRange("gf-time", "&timezone=utc");
    assertTimesIn(ZoneOffset.UTC, "utc", from);
    ZoneId newYork = ZoneId.of("America/New_York");
    openRange("gf-time", "&timezone=America/New_York");
    assertTimesIn(newYork, "America/New_York", from);

    // A time typed in the custom range is read in the dashboard's zone and written as epoch ms.
    openRange("gf-time", "");
    browser.driver.findElement(By.cssSelector(".dash-time-custom summary")).click();
    WebElement fromInput = browser.driver.findElement(By.cssSelector("input[aria-label=From]"));
    String typed = "2026-07-01 12:00:00";
    fromInput.sendKeys(Keys.chord(Keys.CONTROL, "a"), typed);
    browser.driver.findElement(By.xpath("//button[text()='Apply']")).click();
    long expected =
        LocalDateTime.parse(typed.replace(' ', 'T')).atZone(berlin).toInstant().toEpochMilli();
    new WebDriverWait(browser.driver, DRAW_TIMEOUT)
        .withMessage(() -> "from=" + expected + " in " + browser.driver.getCurrentUrl())
        .until(d -> d.getCurrentUrl().contains("from=" + expected));
    awaitPanels();

    // A name that is no zone is said, and the browser's zone (UTC here) is used.
    openRange("gf-time", "&timezone=Mars/Olympus");
    assertThat(
            browser
                .driver
                .findElement(By.cssSelector(".dash-time .dash-tz"))
                .getDomAttribute("data-timezone"))
        .isEqualTo("browser");
    assertThat(browser.driver.findElement(By.tagName("body")).getText())
        .contains("time zone \"Mars/Olympus\" is not one this browser knows");

    // The zone is kept on export, and on import of that export.
    JsonNode exported = getJson("/api/v1/dashboards/gf-time/export?format=grafana");
    assertThat(exported.path("timezone").asText()).isEqualTo("Europe/Berlin");
    ((ObjectNode) exported).put("uid", "gf-time-again").put("title", "Berlin time again");
    importDashboard(exported.toString());
    assertThat(
            getJson("/api/v1/dashboards/gf-time-again/export?format=grafana")
                .path("timezone")
                .asText())
        .isEqualTo("Europe/Berlin");
  }

  @Test
  void heatmapsSavedBeforeGrafana9ComputeTheirOldBuckets() throws Exception {
    importDashboard(
        """
        {"uid": "gf-old-heatmaps", "title": "Grafana 8 heatmaps", "schemaVersion": 27,
         "panels": [
          {"id": 1, "type": "heatmap", "title": "Old by size", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 0, "y": 0, "w": 12, "h": 8}, "dataFormat": "timeseries",
           "xBucketSize": "1m", "xBucketNumber": null, "yBucketSize": 1, "yBucketNumber": null,
           "yAxis": {"show": true, "format": "short", "logBase": 1, "decimals": null, "min": null, "max": null, "splitFactor": null},
           "cards": {"cardPadding": null, "cardRound": null}, "heatmap": {}, "highlightCards": true,
           "color": {"mode": "spectrum", "colorScheme": "interpolateOranges", "cardColor": "#b4ff00"},
           "legend": {"show": false}, "tooltip": {"show": true, "showHistogram": false},
           "targets": [{"refId": "A", "expr": "gf_probe{series=\\"a\\"}"}]},
          {"id": 2, "type": "heatmap", "title": "Old on a log axis", "interval": "15s", "maxDataPoints": 10000,
           "gridPos": {"x": 12, "y": 0, "w": 12, "h": 8}, "dataFormat": "timeseries",
           "yAxis": {"logBase": 10, "splitFactor": null},
           "targets": [{"refId": "A", "expr": "gf_probe{series=\\"b\\"}"}]}]}
        """);
    openRange("gf-old-heatmaps", "");
    // As the new heatmap with the same buckets: a is 0..4, one row per value; 1m columns.
    WebElement size = panel("Old by size");
    assertThat(size.getDomAttribute("data-state")).isEqualTo("ready");
    assertThat(size.getDomAttribute("data-row-totals")).isEqualTo("9,8,8,8,8");
    assertThat(size.getDomAttribute("data-points")).isEqualTo("41");
    // b on powers of ten: 10..90 and 100..400; its 0 is off the log axis.
    WebElement log = panel("Old on a log axis");
    assertThat(log.getDomAttribute("data-row-totals")).isEqualTo("9,31");
    assertThat(log.getText()).contains("1 value is at or below 0");
  }

  @Test
  void dateUnitsAndDashboardLinksFollowTheTimeZone() throws Exception {
    long noonUtc = Instant.parse("2026-07-01T12:00:00Z").toEpochMilli();
    importDashboard(
        """
        {"uid": "gf-tz-other", "title": "Tagged for the zone", "schemaVersion": 39, "tags": ["gf-tz"],
         "panels": []}
        """);
    importDashboard(
        """
        {"uid": "gf-dates", "title": "Dates in Berlin", "schemaVersion": 39, "timezone": "Europe/Berlin",
         "links": [
          {"type": "link", "title": "Same time", "url": "/dashboards/gf-time", "keepTime": true},
          {"type": "link", "title": "Elsewhere", "url": "/dashboards/gf-time"},
          {"type": "dashboards", "tags": ["gf-tz"], "title": "Zone boards"}],
         "panels": [
          {"id": 1, "type": "stat", "title": "ISO", "gridPos": {"x": 0, "y": 0, "w": 8, "h": 4},
           "fieldConfig": {"defaults": {"unit": "dateTimeAsIso"}, "overrides": []},
           "targets": [{"refId": "A", "expr": "vector(%d)"}]},
          {"id": 2, "type": "stat", "title": "US", "gridPos": {"x": 8, "y": 0, "w": 8, "h": 4},
           "fieldConfig": {"defaults": {"unit": "dateTimeAsUS"}, "overrides": []},
           "targets": [{"refId": "A", "expr": "vector(%d)"}]}]}
        """
            .formatted(noonUtc, noonUtc));
    // Noon UTC is 14:00 in Berlin (summer time), the dashboard's zone.
    openRange("gf-dates", "");
    assertThat(statText("ISO")).isEqualTo("2026-07-01 14:00:00");
    assertThat(statText("US")).isEqualTo("07/01/2026 2:00:00 pm");
    assertThat(linkHref("Same time")).doesNotContain("timezone=");
    // The URL's zone overrides it, and the dashboard links that carry the time carry it too.
    openRange("gf-dates", "&timezone=utc");
    assertThat(statText("ISO")).isEqualTo("2026-07-01 12:00:00");
    openRange("gf-dates", "&timezone=America/New_York");
    assertThat(statText("ISO")).isEqualTo("2026-07-01 08:00:00");
    assertThat(statText("US")).isEqualTo("07/01/2026 8:00:00 am");
    assertThat(linkHref("Same time")).contains("from=", "timezone=America%2FNew_York");
    assertThat(linkHref("Elsewhere")).isEqualTo("/dashboards/gf-time");
    new WebDriverWait(browser.driver, DRAW_TIMEOUT)
        .until(d -> !d.findElements(By.cssSelector("[data-link-tags=gf-tz] a")).isEmpty());
    assertThat(
            browser
                .driver
                .findElement(By.cssSelector("[data-link-tags=gf-tz] a"))
                .getDomAttribute("href"))
        .isEqualTo("/dashboards/gf-tz-other?timezone=America%2FNew_York");
  }

  private String statText(String title) {
    return panel(title).findElement(By.cssSelector(".dash-stat-value")).getText();
  }

  private String linkHref(String text) {
    return browser
        .driver
        .findElement(By.xpath("//nav[@class='dash-links']/a[text()='" + text + "']"))
        .getDomAttribute("href");
  }

  /**
   * The picker names the zone; the range, the custom From, the table's and the heatmap's times and
   * the time of the last save are in it.
   */
  private void assertTimesIn(ZoneId zone, String name, long from) throws Exception {
    WebElement tz = browser.driver.findElement(By.cssSelector(".dash-time .dash-tz"));
    assertThat(tz.getDomAttribute("data-timezone")).isEqualTo(name);
    String offset = zone.getRules().getOffset(Instant.ofEpochMilli(from)).getId();
    assertThat(tz.getText())
        .isEqualTo(
            zone.equals(ZoneOffset.UTC)
                ? "UTC"
                : name + " (UTC" + offset.replace("Z", "+00:00") + ")");
    DateTimeFormatter minute = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(zone);
    DateTimeFormatter second = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(zone);
    String range =
        minute.format(Instant.ofEpochMilli(from))
            + " to "
            + minute.format(Instant.ofEpochMilli(end));
    assertThat(
            new Select(
                    browser.driver.findElement(By.cssSelector("select[aria-label='Time range']")))
                .getFirstSelectedOption()
                .getText())
        .isEqualTo(range);
    assertThat(
            browser
                .driver
                .findElement(By.cssSelector("input[aria-label=From]"))
                .getDomProperty("value"))
        .isEqualTo(second.format(Instant.ofEpochMilli(from)));
    WebElement firstTime = panel("Times").findElement(By.cssSelector("tbody tr td"));
    assertThat(firstTime.getText()).isEqualTo(second.format(Instant.ofEpochMilli(from)));
    assertThat(panel("Buckets of b").findElement(By.cssSelector(".dash-heatmap-times")).getText())
        .startsWith(minute.format(Instant.ofEpochMilli(from)));
    Instant updated = Instant.parse(getJson("/api/v1/dashboards/gf-time").path("updated").asText());
    assertThat(browser.driver.findElement(By.cssSelector(".dash-meta")).getText())
        .contains("at " + minute.format(updated));
  }

  private void importDashboard(String document) throws Exception {
    HttpResponse<String> imported = post("/api/v1/dashboards/import?overwrite=true", document);
    assertThat(imported.statusCode()).as(imported.body()).isEqualTo(200);
  }

  private HttpResponse<String> post(String path, String body) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(server.uri(path))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The dashboard over the probes' ten minutes, auto refresh off, with `extra` parameters. */
  private void openRange(String uid, String extra) {
    browser.open(
        server
            .uri(
                "/dashboards/"
                    + uid
                    + "?refresh=off&from="
                    + (end - 600_000)
                    + "&to="
                    + end
                    + extra)
            .toString());
    awaitPanels();
  }

  /** Opens the panel's editor. */
  private WebElement edit(String title) {
    WebElement card = panel(title);
    new Actions(browser.driver).moveToElement(card).perform();
    card.findElement(By.cssSelector("button.dash-panel-edit")).click();
    return browser.await("dialog.dash-editor[open]");
  }

  /** Saves the editor and waits for the page to say so and draw again. */
  private void save(WebElement dialog, int version) throws Exception {
    dialog.findElement(By.xpath(".//button[text()='Save as new version']")).click();
    // The page says the new version (an earlier save's line stays until it is replaced).
    String said =
        new WebDriverWait(browser.driver, DRAW_TIMEOUT)
            .until(
                d -> {
                  // Read in one script: the line is replaced while the page draws again.
                  Object text =
                      browser.js(
                          "const e = document.querySelector('dialog.dash-editor .error-box')"
                              + " || document.querySelector('.dash-saved');"
                              + "return e ? e.textContent : null;");
                  return text != null
                          && (text.toString().contains("version " + version)
                              || !text.toString().startsWith("Saved"))
                      ? text.toString()
                      : null;
                });
    assertThat(said).startsWith("Saved version " + version);
    new WebDriverWait(browser.driver, DRAW_TIMEOUT)
        .until(d -> d.findElements(By.cssSelector("dialog.dash-editor")).isEmpty());
    awaitPanels();
  }

  private static void click(WebElement dialog, String label) {
    dialog.findElement(By.cssSelector("button[aria-label='" + label + "']")).click();
  }

  private static WebElement field(WebElement dialog, String name) {
    return dialog.findElement(By.cssSelector("[name='" + name + "']"));
  }

  /** Replaces a field's text as a user does: select all, then type. */
  private static void type(WebElement dialog, String name, String text) {
    field(dialog, name).sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE, text);
  }

  private String statColour(String title) {
    return String.valueOf(
        browser.js(
            "return getComputedStyle(arguments[0]).color;",
            panel(title).findElement(By.cssSelector(".dash-stat-value"))));
  }

  private String statValue(String title) {
    return panel(title).findElement(By.cssSelector(".dash-stat")).getDomAttribute("data-value");
  }

  private JsonNode panelModel(String uid, String id) throws Exception {
    return getJson("/api/v1/dashboards/" + uid).path("dashboard").path("panels").path(id);
  }

  private int versions(String uid) throws Exception {
    return getJson("/api/v1/dashboards/" + uid + "/versions").size();
  }

  private JsonNode getJson(String path) throws Exception {
    HttpResponse<String> response = server.get(path);
    assertThat(response.statusCode()).as("%s: %s", path, response.body()).isEqualTo(200);
    JsonNode body = JSON.readTree(response.body());
    return body.has("status") && body.has("data") ? body.path("data") : body;
  }

  private WebElement panel(String title) {
    return browser.chart(title);
  }

  private void saveScreenshot(String name) throws Exception {
    browser.screenshot(name);
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
}
