package io.flightdeck.app;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.staticfiles.Location;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Serves the web cockpit (the {@code cockpit} module's static ES modules) and its libraries from
 * WebJars. Every page is the same {@code index.html}, which reads the URL and draws the page; the
 * page routes are listed here so that an unknown path still answers 404 rather than a blank page.
 */
final class Cockpit {
  /** Where the {@code cockpit} module keeps its files on the class path. */
  static final String CLASSPATH_ROOT = "/io/flightdeck/cockpit/static";

  /** The pages; each answers {@code index.html}. */
  static final List<String> PAGES =
      List.of(
          "/",
          "/runs/<run>",
          "/compare",
          "/cluster",
          "/explore",
          "/alerts",
          "/status",
          "/dashboards",
          "/dashboards/<uid>");

  /** The page shell's placeholder for the run label, so no page waits for a flags request. */
  private static final String RUN_LABEL_META =
      "<meta name=\"flightdeck:run-label\" content=\"run\">";

  private final Path folder;
  private final String runLabel;

  /**
   * @param folder a folder to read the files from instead of the jar, so that the cockpit can be
   *     edited and reloaded without a build; null serves the jar's
   * @param runLabel the label that names a run ({@code --cockpit.run-label})
   */
  Cockpit(Path folder, String runLabel) {
    this.folder = folder;
    this.runLabel = runLabel;
  }

  void register(JavalinConfig config) {
    config.staticFiles.enableWebjars();
    config.staticFiles.add(
        files -> {
          files.hostedPath = "/static";
          if (folder == null) {
            files.directory = CLASSPATH_ROOT;
            files.location = Location.CLASSPATH;
          } else {
            files.directory = folder.toAbsolutePath().toString();
            files.location = Location.EXTERNAL;
            // An edited file is seen at the next reload.
            files.headers = java.util.Map.of("Cache-Control", "no-cache");
          }
        });
    for (String page : PAGES) {
      config.routes.get(page, this::page);
    }
  }

  private void page(Context ctx) {
    ctx.contentType("text/html; charset=utf-8");
    // The page shell is tiny and names the current module files: never cached, so a new server
    // version is picked up at the next load.
    ctx.header("Cache-Control", "no-cache");
    String shell = new String(indexHtml(), StandardCharsets.UTF_8);
    ctx.result(
        shell.replace(
            RUN_LABEL_META,
            RUN_LABEL_META.replace("content=\"run\"", "content=\"" + attribute(runLabel) + "\"")));
  }

  /** A label name is [a-zA-Z_][a-zA-Z0-9_]*, but the shell must stay HTML whatever it is given. */
  private static String attribute(String text) {
    return text.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;");
  }

  private byte[] indexHtml() {
    try {
      if (folder != null) {
        return Files.readAllBytes(folder.resolve("index.html"));
      }
      try (InputStream in = Cockpit.class.getResourceAsStream(CLASSPATH_ROOT + "/index.html")) {
        if (in == null) {
          throw new IllegalStateException(
              "the cockpit's index.html is missing from the class path at " + CLASSPATH_ROOT);
        }
        return in.readAllBytes();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
