package io.flightdeck.app;

import picocli.CommandLine.Command;

/** {@code flightdeck tsdb ...}: offline tools for a data directory, like promtool tsdb. */
@Command(
    name = "tsdb",
    mixinStandardHelpOptions = true,
    description = "Inspect a data directory, read-only (a running server's too: what is on disk).",
    subcommands = {TsdbAnalyzeCommand.class, TsdbDumpCommand.class})
final class TsdbCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
