package io.flightdeck.app;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code flightdeck test}: unit tests of files, like promtool test. */
@Command(
    name = "test",
    mixinStandardHelpOptions = true,
    description = "Run unit tests, like promtool test.",
    subcommands = {TestRulesCommand.class})
final class TestCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
