package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page shell every cockpit page is served as: it names the configured run label, so the first
 * page draws without asking for the flags first, and unknown paths stay 404.
 */
class CockpitShellTest {
  @Test
  void theShellNamesTheRunLabelAndUnknownPathsAre404(@TempDir Path dir) throws Exception {
    try (FlightdeckServerProcess server =
        FlightdeckServerProcess.start(
            dir.resolve("data"),
            Files.createFile(dir.resolve("log")),
            "--cockpit.run-label=exp_id")) {
      server.awaitReady();
      HttpResponse<String> page = TestHttp.get(server.uri("/runs/llama-7b"));
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.headers().firstValue("Content-Type"))
          .hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
      assertThat(page.body())
          .contains("<meta name=\"flightdeck:run-label\" content=\"exp_id\">")
          .doesNotContain("content=\"run\"");
      assertThat(TestHttp.get(server.uri("/")).body()).contains("content=\"exp_id\"");
      assertThat(TestHttp.get(server.uri("/no-such-page")).statusCode()).isEqualTo(404);
    }
  }
}
