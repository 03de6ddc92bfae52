package io.flightdeck.app;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code flightdeck} command: server, and tools that work on a data directory. */
@Command(
    name = "flightdeck",
    mixinStandardHelpOptions = true,
    versionProvider = BuildInfo.class,
    description =
        "Observability for deep-learning training: metrics, GPUs and training curves on one timeline.",
    subcommands = {
      ServerCommand.class,
      CheckCommand.class,
      TestCommand.class,
      AgentCommand.class,
      TsdbCommand.class,
      ImportCommand.class,
      QueryCommand.class,
      PromqlTestCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  static CommandLine commandLine() {
    return new CommandLine(new Main())
        .setCaseInsensitiveEnumValuesAllowed(true)
        .setExecutionExceptionHandler(
            (e, cmd, parsed) -> {
              cmd.getErr().println("flightdeck: " + e.getMessage());
              return 1;
            });
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
