package io.flightdeck.app;

import io.flightdeck.promqltest.Outcome;
import io.flightdeck.promqltest.ReportWriter;
import io.flightdeck.promqltest.ScriptException;
import io.flightdeck.promqltest.ScriptParser;
import io.flightdeck.promqltest.ScriptResult;
import io.flightdeck.promqltest.ScriptRunner;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code flightdeck promql-test FILE...}: runs Prometheus-style PromQL test scripts against the
 * engine on a temporary embedded database and prints each failure and a summary. Exit code 0 when
 * nothing failed, 1 otherwise (a script that does not parse counts as a failure).
 */
@Command(
    name = "promql-test",
    mixinStandardHelpOptions = true,
    description = "Run PromQL test scripts (Prometheus's *.test format) against the query engine.")
final class PromqlTestCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Test scripts to run.")
  List<Path> files;

  @Option(
      names = "--verbose",
      description = "Also list each skipped command with the reason it was skipped.")
  boolean verbose;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ScriptRunner runner = new ScriptRunner();
    List<ScriptResult> results = new ArrayList<>();
    boolean broken = false;
    for (Path file : files) {
      try {
        results.add(runner.run(ScriptParser.parse(file)));
      } catch (ScriptException e) {
        err.println(e.getMessage());
        broken = true;
      } catch (IOException e) {
        err.println(file + ": cannot read: " + e.getMessage());
        broken = true;
      }
    }
    ReportWriter.write(results, out, verbose);
    err.flush();
    boolean failed = results.stream().anyMatch(r -> r.count(Outcome.Status.FAILED) > 0);
    return broken || failed ? 1 : 0;
  }
}
