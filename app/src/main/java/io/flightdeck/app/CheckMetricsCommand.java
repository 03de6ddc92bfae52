package io.flightdeck.app;

import io.flightdeck.exposition.ExpositionFormat;
import io.flightdeck.exposition.ExpositionParseException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flightdeck check metrics < body}: like {@code promtool check metrics}, exit code 1 with
 * the first parse error (and its line) on stderr, else promlint's problems, one {@code metric text}
 * a line, and exit code 0: lint findings are advice (promtool exits 3 for them; the issue asks for
 * 0, so that pipelines fail only on bodies a scrape would refuse).
 */
@Command(
    name = "metrics",
    mixinStandardHelpOptions = true,
    description = "Check an exposition body read from standard input, like promtool check metrics.")
final class CheckMetricsCommand implements Callable<Integer> {

  /** The formats by the names of {@code --format}. */
  enum Format {
    text(ExpositionFormat.TEXT_0_0_4),
    openmetrics(ExpositionFormat.OPENMETRICS_1_0_0);

    final ExpositionFormat format;

    Format(ExpositionFormat format) {
      this.format = format;
    }
  }

  @Option(
      names = "--format",
      defaultValue = "text",
      description = "Format of the body: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
  Format format;

  @Spec CommandSpec spec;

  private final InputStream in;

  CheckMetricsCommand() {
    this(System.in);
  }

  /** With another standard input, for tests. */
  CheckMetricsCommand(InputStream in) {
    this.in = in;
  }

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    List<MetricsLinter.Problem> problems;
    try {
      problems = MetricsLinter.lint(format.format, in.readAllBytes());
    } catch (ExpositionParseException e) {
      err.println("error while linting: " + e.getMessage());
      err.flush();
      return 1;
    }
    problems.forEach(out::println);
    out.flush();
    // Lint findings are advice: the body parses, so the check passes (promtool would exit 3).
    return 0;
  }
}
