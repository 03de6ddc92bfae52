package io.flightdeck.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Opens the run page in Debian's headless Chromium, one fresh browser (empty profile, cold cache)
 * per load, and reads what the page measured itself: the cockpit brackets the overview's requests
 * and drawing with {@code performance.measure('flightdeck:overview')}, and every chart element
 * carries {@code data-state}, {@code data-series} and {@code data-points}. Bytes come from the
 * resource timing entries of the API calls.
 */
final class RunPageLoads {

  private static final String CHROMIUM = "/usr/bin/chromium";
  private static final String CHROMEDRIVER = "/usr/bin/chromedriver";
  private static final Duration PAGE_TIMEOUT = Duration.ofSeconds(120);

  /** Records the cockpit's POST bodies to cockpit/series, so the same panels can be replayed. */
  private static final String RECORD_SERIES_REQUESTS =
      """
      window.__benchSeries = [];
      const fetchBefore = window.fetch;
      window.fetch = (input, init) => {
        if (String(input).includes('/api/v1/cockpit/series') && init && init.body) {
          window.__benchSeries.push(init.body);
        }
        return fetchBefore(input, init);
      };
      """;

  /** Everything one load measured; times in ms since the page's navigation started. */
  record Load(
      double lastChartDrawnMs,
      double overviewMs,
      double overviewStartMs,
      double stepmapEventsMs,
      double seriesRequestMs,
      double seriesResponseEndMs,
      int charts,
      int ready,
      int empty,
      int error,
      long series,
      long points,
      int apiRequests,
      long apiTransferBytes,
      long apiEncodedBytes,
      long apiDecodedBytes,
      long seriesEncodedBytes,
      long allTransferBytes) {

    /** Drawing: from the series answer to the end of the measure (the last chart drawn). */
    double drawMs() {
      return lastChartDrawnMs - seriesResponseEndMs;
    }
  }

  /**
   * The queries the page sent to cockpit/series, with the range it asked for, and for each query a
   * cockpit/series body asking for it alone.
   */
  record Panels(
      List<String> exprs, List<String> singleBodies, double startSeconds, double endSeconds) {}

  private static final String READ_LOAD =
      """
      const m = performance.getEntriesByName('flightdeck:overview')[0];
      const api = performance.getEntriesByType('resource').filter((r) => r.name.includes('/api/'));
      const all = performance.getEntriesByType('resource');
      const nav = performance.getEntriesByType('navigation')[0];
      const sum = (list, key) => list.reduce((s, r) => s + (r[key] || 0), 0);
      const after = (r) => r.startTime >= m.startTime - 1;
      const series = api.filter((r) => r.name.includes('/cockpit/series') && after(r));
      const sideCalls = api.filter((r) => (r.name.includes('/stepmap') || r.name.includes('/events')) && after(r));
      const charts = [...document.querySelectorAll('[data-chart]')];
      const state = (s) => charts.filter((c) => c.dataset.state === s).length;
      return {
        end: m.startTime + m.duration, duration: m.duration, start: m.startTime,
        side: sideCalls.length ? Math.max(...sideCalls.map((r) => r.responseEnd)) - m.startTime : 0,
        seriesMs: series.length ? series[0].responseEnd - series[0].startTime : 0,
        seriesEnd: series.length ? Math.max(...series.map((r) => r.responseEnd)) : m.startTime,
        charts: charts.length, ready: state('ready'), empty: state('empty'), error: state('error'),
        series: charts.reduce((s, c) => s + Number(c.dataset.series || 0), 0),
        points: charts.reduce((s, c) => s + Number(c.dataset.points || 0), 0),
        apiRequests: api.length,
        apiTransfer: sum(api, 'transferSize'), apiEncoded: sum(api, 'encodedBodySize'),
        apiDecoded: sum(api, 'decodedBodySize'), seriesEncoded: sum(series, 'encodedBodySize'),
        allTransfer: sum(all, 'transferSize') + (nav ? nav.transferSize : 0),
      };
      """;

  private final String pageUrl;
  private final Path profiles;

  RunPageLoads(String pageUrl, Path profiles) {
    this.pageUrl = pageUrl;
    this.profiles = profiles;
  }

  /** The browser's version line, as the report shows it. */
  String browserVersion() {
    try {
      Process p = new ProcessBuilder(CHROMIUM, "--version").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes()).strip();
      p.waitFor();
      return out.lines().filter(l -> l.startsWith("Chromium")).findFirst().orElse(out);
    } catch (IOException e) {
      return "unknown (" + e.getMessage() + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  /** One cold load, measured. */
  Load measure(String name) throws IOException {
    ChromeDriver driver = start(name);
    try {
      return read(open(driver));
    } finally {
      driver.quit();
    }
  }

  /** One cold load that records the panels' queries instead of measuring (the fetch is wrapped). */
  Panels recordPanels() throws IOException {
    ChromeDriver driver = start("record");
    try {
      driver.executeCdpCommand(
          "Page.addScriptToEvaluateOnNewDocument", Map.of("source", RECORD_SERIES_REQUESTS));
      JavascriptExecutor js = open(driver);
      @SuppressWarnings("unchecked")
      Map<String, Object> found =
          (Map<String, Object>)
              js.executeScript(
                  """
                  const bodies = window.__benchSeries.map((b) => JSON.parse(b));
                  if (!bodies.length) return null;
                  return { exprs: bodies.flatMap((b) => b.queries.map((q) => q.expr)),
                           single: bodies.flatMap((b) => b.queries.map((q) =>
                             JSON.stringify({ ...b, queries: [q] }))),
                           start: bodies[0].start, end: bodies[0].end };
                  """);
      if (found == null) {
        throw new IOException("the run page sent no cockpit/series request");
      }
      @SuppressWarnings("unchecked")
      List<String> exprs = (List<String>) found.get("exprs");
      @SuppressWarnings("unchecked")
      List<String> single = (List<String>) found.get("single");
      return new Panels(
          List.copyOf(exprs),
          List.copyOf(single),
          ((Number) found.get("start")).doubleValue(),
          ((Number) found.get("end")).doubleValue());
    } finally {
      driver.quit();
    }
  }

  private JavascriptExecutor open(ChromeDriver driver) throws IOException {
    driver.get(pageUrl);
    try {
      new WebDriverWait(driver, PAGE_TIMEOUT, Duration.ofMillis(50))
          .until(
              d ->
                  (Boolean)
                      ((JavascriptExecutor) d)
                          .executeScript(
                              "return performance.getEntriesByName('flightdeck:overview').length"
                                  + " > 0"));
    } catch (RuntimeException e) {
      throw new IOException(
          "the run page at "
              + pageUrl
              + " did not finish its overview within "
              + PAGE_TIMEOUT.toSeconds()
              + " s: "
              + e.getMessage().lines().findFirst().orElse(""),
          e);
    }
    return driver;
  }

  private static Load read(JavascriptExecutor js) {
    @SuppressWarnings("unchecked")
    Map<String, Object> m = (Map<String, Object>) js.executeScript(READ_LOAD);
    return new Load(
        num(m, "end"),
        num(m, "duration"),
        num(m, "start"),
        num(m, "side"),
        num(m, "seriesMs"),
        num(m, "seriesEnd"),
        (int) num(m, "charts"),
        (int) num(m, "ready"),
        (int) num(m, "empty"),
        (int) num(m, "error"),
        (long) num(m, "series"),
        (long) num(m, "points"),
        (int) num(m, "apiRequests"),
        (long) num(m, "apiTransfer"),
        (long) num(m, "apiEncoded"),
        (long) num(m, "apiDecoded"),
        (long) num(m, "seriesEncoded"),
        (long) num(m, "allTransfer"));
  }

  private static double num(Map<String, Object> m, String key) {
    Object v = m.get(key);
    return v instanceof Number n ? n.doubleValue() : 0;
  }

  private ChromeDriver start(String name) throws IOException {
    Path profile = profiles.resolve(name);
    deleteTree(profile);
    Files.createDirectories(profile);
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM);
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
        "--window-size=1280,900",
        "--user-data-dir=" + profile);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(Path.of(CHROMEDRIVER).toFile())
            .build();
    return new ChromeDriver(service, options);
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      List<Path> all = new ArrayList<>(paths.toList());
      all.sort(Comparator.reverseOrder());
      for (Path p : all) {
        Files.delete(p);
      }
    }
  }
}
