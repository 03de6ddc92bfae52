package io.flightdeck.app;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code flightdeck check}: validates files before they are deployed, like promtool check. */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    description = "Check configuration and other files, like promtool check.",
    subcommands = {CheckConfigCommand.class, CheckRulesCommand.class, CheckMetricsCommand.class})
final class CheckCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
