package io.flightdeck.app;

import io.flightdeck.rules.RuleUnitTester;
import io.flightdeck.tsdb.Tsdb;
import io.flightdeck.tsdb.TsdbOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code flightdeck test rules FILE...}: promtool's rule unit tests, each run on a fresh embedded
 * database in a temporary directory, with promtool's output and exit codes.
 */
@Command(
    name = "rules",
    mixinStandardHelpOptions = true,
    description = "Run rule unit tests written in promtool's format.")
final class TestRulesCommand implements Callable<Integer> {
  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Unit test files.")
  List<Path> files;

  @Override
  public Integer call() {
    RuleUnitTester tester =
        new RuleUnitTester(
            dir -> {
              // Test series start at time 0: no retention, and a clock far ahead so nothing is
              // refused as too far in the future.
              Tsdb db =
                  Tsdb.open(
                      TsdbOptions.defaults(dir)
                          .withRetention(Duration.ZERO)
                          .withClock(() -> Long.MAX_VALUE / 4));
              return new RuleUnitTester.Storage(db, db, db);
            });
    return tester.run(files, System.out, System.err);
  }
}
