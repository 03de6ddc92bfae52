package io.flightdeck.app.cockpit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.regex.Pattern;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium through its chromedriver (Selenium Manager never downloads: both paths
 * are given), with a fresh profile, the network-quiet flags, UTC and a fixed viewport. Reads the
 * browser log, so tests fail on console errors and on failed requests (Chromium logs each one).
 */
final class Browser implements AutoCloseable {
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  static final Path SCREENSHOTS = Path.of("target", "cockpit-screenshots");
  private static final Duration DRAW_TIMEOUT = Duration.ofSeconds(30);

  final ChromeDriver driver;
  private final Path profile;

  Browser() throws IOException {
    assertThat(CHROMIUM)
        .as(
            "Debian's chromium is needed for the cockpit's browser tests (apt-get install chromium)")
        .isExecutable();
    assertThat(CHROMEDRIVER)
        .as("Debian's chromedriver is needed (apt-get install chromium-driver)")
        .isExecutable();
    System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
    profile = Files.createTempDirectory("cockpit-chromium");
    // Only this run's screenshots: none left from an earlier one with another name.
    if (Files.isDirectory(SCREENSHOTS)) {
      try (var old = Files.list(SCREENSHOTS)) {
        for (Path png : old.filter(p -> p.toString().endsWith(".png")).toList()) {
          Files.delete(png);
        }
      }
    }
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        "--lang=en-US",
        "--user-data-dir=" + profile,
        "--window-size=1440,1000");
    options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile())
            .withEnvironment(Map.of("TZ", "UTC"))
            .build();
    driver = new ChromeDriver(service, options);
    driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
  }

  void open(String url) {
    driver.get(url);
  }

  Object js(String script, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(script, args);
  }

  /** Runs {@code script} asynchronously; it ends by calling {@code done(result)}. */
  Object async(String script) {
    return ((JavascriptExecutor) driver)
        .executeAsyncScript("const done = arguments[arguments.length - 1];" + script);
  }

  /**
   * Waits until every chart on the page (hidden ones aside) has finished: ready, empty or error.
   */
  void awaitCharts() {
    new WebDriverWait(driver, DRAW_TIMEOUT)
        .withMessage(() -> "charts still loading: " + chartStates())
        .until(
            d ->
                (Boolean)
                    js(
                        "const c=[...document.querySelectorAll('[data-chart]')];"
                            + "return c.length>0&&c.every(e=>e.hidden||['ready','empty','error']"
                            + ".includes(e.dataset.state));"));
  }

  String chartStates() {
    return String.valueOf(
        js(
            "return [...document.querySelectorAll('[data-chart]')].map(e=>e.dataset.chart+'='"
                + "+e.dataset.state+(e.dataset.error?' ('+e.dataset.error+')':'')).join('; ')"));
  }

  /** The chart titled {@code title}. */
  WebElement chart(String title) {
    return driver.findElement(By.cssSelector("[data-chart=\"" + title + "\"]"));
  }

  /** Waits for an element matching the CSS selector. */
  WebElement await(String css) {
    return new WebDriverWait(driver, DRAW_TIMEOUT)
        .withMessage(() -> "no element " + css + " on " + driver.getCurrentUrl())
        .until(d -> d.findElements(By.cssSelector(css)).stream().findFirst().orElse(null));
  }

  /** Severe browser-log entries (console errors, failed requests) not matching {@code allowed}. */
  List<String> errors(Pattern allowed) {
    return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
        .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
        .map(LogEntry::getMessage)
        .filter(m -> allowed == null || !allowed.matcher(m).find())
        .toList();
  }

  /** A PNG of the whole page under target/cockpit-screenshots/{name}.png. */
  Path screenshot(String name) throws IOException {
    js("window.scrollTo(0, 0)");
    Dimension before = driver.manage().window().getSize();
    long height = (Long) js("return Math.min(5000, document.documentElement.scrollHeight)");
    driver.manage().window().setSize(new Dimension(before.width, (int) Math.max(height, 600)));
    try {
      Files.createDirectories(SCREENSHOTS);
      Path file = SCREENSHOTS.resolve(name + ".png");
      Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
      return file;
    } finally {
      driver.manage().window().setSize(before);
    }
  }

  /**
   * A PNG of what a 1280x900 window shows from the top of the page, for the README: the size a
   * reader's screen shows at once, not the whole page.
   */
  Path viewportScreenshot(Path dir, String name) throws IOException {
    Dimension before = driver.manage().window().getSize();
    driver.manage().window().setSize(new Dimension(1280, 900));
    // The window's size includes the browser's own frame: grow it until the page sees 1280x900.
    long innerWidth = (Long) js("return window.innerWidth");
    long innerHeight = (Long) js("return window.innerHeight");
    driver
        .manage()
        .window()
        .setSize(new Dimension((int) (2560 - innerWidth), (int) (1800 - innerHeight)));
    try {
      js("window.scrollTo(0, 0)");
      // Charts redraw to the new width on the next frames.
      async("requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 300)))");
      Files.createDirectories(dir);
      Path file = dir.resolve(name + ".png");
      Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
      return file;
    } finally {
      driver.manage().window().setSize(before);
    }
  }

  @Override
  public void close() throws IOException {
    driver.quit();
    try (var files = Files.walk(profile)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
