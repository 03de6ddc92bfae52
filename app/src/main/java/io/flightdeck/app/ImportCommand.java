package io.flightdeck.app;

import picocli.CommandLine.Command;

/** {@code flightdeck import ...}: one-shot imports of data written by other tools. */
@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    description = "Import data from other tools into a data directory, once.",
    subcommands = {ImportTensorBoardCommand.class})
final class ImportCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
