package io.flightdeck.app;

import io.flightdeck.rules.RuleChecker;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code flightdeck check rules FILE...}: promtool's rule-file check, same output and exit codes.
 */
@Command(
    name = "rules",
    mixinStandardHelpOptions = true,
    description = "Check Prometheus-format rule files: syntax, expressions, templates, names.")
final class CheckRulesCommand implements Callable<Integer> {
  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Rule files to check.")
  List<Path> files;

  @Override
  public Integer call() {
    return new RuleChecker().run(files, System.out, System.err);
  }
}
