package io.flightdeck.app;

import io.flightdeck.tsdb.block.BlockWriter;
import java.util.List;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code flightdeck} command: server, and tools that work on a data directory. */
@Command(
    name = "flightdeck",
    mixinStandardHelpOptions = true,
    versionProvider = BuildInfo.class,
    description =
        "Observability for deep-learning training: metrics, GPUs and training curves on one timeline.")
public final class Main implements Runnable {
  /** The subcommands, in the order of the usage message. */
  private static final List<Class<?>> SUBCOMMANDS =
      List.of(
          ServerCommand.class,
          DemoCommand.class,
          InitCommand.class,
          CheckCommand.class,
          TestCommand.class,
          AgentCommand.class,
          TsdbCommand.class,
          ImportCommand.class,
          QueryCommand.class,
          PromqlTestCommand.class,
          CommandLine.HelpCommand.class);

  private static final List<String> TOP_LEVEL_OPTIONS = List.of("-h", "--help", "-V", "--version");

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    args = withMainJob(args);
    // Setting up logging takes a tenth of a second of CPU, on the path of every command that logs;
    // done beside parsing the command line, it takes a core that is idle then.
    Thread.ofPlatform()
        .daemon()
        .name("logging-setup")
        .start(() -> LoggerFactory.getLogger(Main.class));
    // So does setting up the block writer (zstd's native binding, the meta file's JSON mapper),
    // which an import needs at its first chunk: started later, it took CPU from the import's two
    // busy threads.
    if (args.length > 0 && subcommandNamed(args[0]) == ImportCommand.class) {
      Thread.ofPlatform().daemon().name("block-writer-preload").start(BlockWriter::preload);
    }
    System.exit(commandLine(args).execute(args));
  }

  /**
   * The main job: {@code flightdeck} alone, or followed by server flags, runs the server; {@code
   * --help} and {@code --version} still answer for the whole command.
   */
  static String[] withMainJob(String[] args) {
    if (args.length > 0 && (!args[0].startsWith("-") || TOP_LEVEL_OPTIONS.contains(args[0]))) {
      return args;
    }
    String[] server = new String[args.length + 1];
    server[0] = "server";
    System.arraycopy(args, 0, server, 1, args.length);
    return server;
  }

  /** The command line with every subcommand. */
  static CommandLine commandLine() {
    return commandLine(new String[0]);
  }

  /**
   * The command line for {@code args}: when they start with a subcommand's name, with that
   * subcommand only. Picocli reflects over every option of every command it is given, which took
   * 0.2 s of CPU at each start with all of them; the help command and top-level options still get
   * every subcommand.
   */
  static CommandLine commandLine(String[] args) {
    CommandLine cli = new CommandLine(new Main());
    Class<?> named = args.length == 0 ? null : subcommandNamed(args[0]);
    for (Class<?> subcommand : SUBCOMMANDS) {
      if (named == null || subcommand == named) {
        cli.addSubcommand(subcommand);
      }
    }
    return cli.setCaseInsensitiveEnumValuesAllowed(true)
        .setExecutionExceptionHandler(
            (e, cmd, parsed) -> {
              cmd.getErr().println("flightdeck: " + e.getMessage());
              return 1;
            });
  }

  private static Class<?> subcommandNamed(String name) {
    for (Class<?> subcommand : SUBCOMMANDS) {
      Command command = subcommand.getAnnotation(Command.class);
      if (subcommand != CommandLine.HelpCommand.class
          && (command.name().equals(name) || List.of(command.aliases()).contains(name))) {
        return subcommand;
      }
    }
    return null;
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
