package io.flightdeck.app;

import io.flightdeck.config.ConfigException;
import io.flightdeck.config.ConfigLoader;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code flightdeck check config FILE...}: loads each file as the server would, printing SUCCESS or
 * the error with file, line and field; exit code 1 if any file fails, as promtool does.
 */
@Command(
    name = "config",
    mixinStandardHelpOptions = true,
    description = "Check that configuration files are valid.")
final class CheckConfigCommand implements Callable<Integer> {
  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Configuration files to check.")
  List<Path> files;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    int failed = 0;
    for (Path file : files) {
      out.println("Checking " + file);
      try {
        ConfigLoader.load(file);
        out.println("  SUCCESS: " + file + " is valid prometheus config file syntax");
      } catch (ConfigException e) {
        err.println("  FAILED: " + e.getMessage());
        failed++;
      }
      out.println();
    }
    out.flush();
    err.flush();
    return failed == 0 ? 0 : 1;
  }
}
