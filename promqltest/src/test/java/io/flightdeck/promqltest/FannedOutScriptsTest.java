package io.flightdeck.promqltest;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.engine.EngineOptions;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Spreading a query's series over threads changes no result: every script, upstream and ours, gives
 * the same outcome for every command on one thread and with each series its own batch over four
 * workers (the engine fans out only large selections by default, which the scripts never reach).
 */
class FannedOutScriptsTest {
  @Test
  void everyCommandHasTheSameOutcomeFannedOutAsOnOneThread() throws Exception {
    List<Path> files = scripts();
    EngineOptions oneThread =
        ScriptRunner.TEST_ENGINE.withParallelism(new EngineOptions.Parallelism(1, 1));
    EngineOptions fannedOut =
        ScriptRunner.TEST_ENGINE.withParallelism(new EngineOptions.Parallelism(4, 1));

    List<ScriptResult> sequential = run(new ScriptRunner(new Engine(oneThread)), files);
    List<ScriptResult> parallel = run(new ScriptRunner(new Engine(fannedOut)), files);

    assertThat(parallel).hasSameSizeAs(sequential);
    for (int i = 0; i < sequential.size(); i++) {
      assertThat(parallel.get(i).outcomes())
          .as(sequential.get(i).file())
          .containsExactlyElementsOf(sequential.get(i).outcomes());
    }
    long evaluated = sequential.stream().mapToLong(r -> r.count(Outcome.Status.PASSED)).sum();
    assertThat(evaluated).as("commands that ran and passed").isGreaterThan(1_000);
  }

  private static List<Path> scripts() throws IOException, URISyntaxException {
    List<Path> files = new ArrayList<>(SharedScriptsTest.scripts().toList());
    try (Stream<Path> listing =
        Files.list(Path.of(FannedOutScriptsTest.class.getResource("/scripts").toURI()))) {
      files.addAll(listing.filter(p -> p.toString().endsWith(".test")).sorted().toList());
    }
    return files;
  }

  private static List<ScriptResult> run(ScriptRunner runner, List<Path> files) throws IOException {
    List<ScriptResult> results = new ArrayList<>();
    for (Path file : files) {
      results.add(runner.run(ScriptParser.parse(file)));
    }
    return results;
  }
}
