package io.flightdeck.app;

import io.flightdeck.demo.DemoOptions;
import io.flightdeck.demo.DemoScript;
import io.flightdeck.demo.RunningDemo;
import io.flightdeck.model.DurationFormat;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code flightdeck demo}: a training cluster in a box. Starts the simulated cluster (two nodes of
 * eight GPUs, a 16-rank job, a sibling TensorBoard run, scripted incidents on a compressed
 * timeline) and then the normal server on the config it generates; any other option is the
 * server's.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description =
        "Run the server with a simulated training cluster: 2 nodes x 8 GPUs, a 16-rank job, a"
            + " TensorBoard run, and scripted incidents (NaN loss, hung rank, memory leak, network"
            + " saturation, loss rebound, XID 79, hot GPU) on a compressed timeline. The shipped"
            + " rule packs run with every duration divided by --speed. Other options are the"
            + " server's (see `flightdeck server --help`).")
final class DemoCommand implements Callable<Integer> {
  static final String DEFAULT_DATA_DIR = "./demo-data";

  /**
   * The server's defaults of --cockpit.stall-after, --cockpit.crash-after, --cockpit.rate-window
   * and --cockpit.detection-window, before scaling.
   */
  private static final Duration STALL_AFTER = Duration.ofMinutes(2);

  private static final Duration RATE_WINDOW = Duration.ofMinutes(10);

  private static final Duration CRASH_AFTER = Duration.ofMinutes(5);

  private static final Duration DETECTION_WINDOW = Duration.ofHours(1);

  @Option(
      names = "--speed",
      defaultValue = "30",
      description =
          "Simulated seconds per real second (default ${DEFAULT-VALUE}: every incident within 5"
              + " minutes).")
  double speed;

  @Option(
      names = "--seed",
      defaultValue = "1",
      description = "Fixes every simulated value; the same seed gives the same data.")
  long seed;

  @Option(
      names = "--duration",
      defaultValue = "150m",
      description =
          "How long the simulated job runs, in simulated time (default ${DEFAULT-VALUE}).")
  String duration;

  @Option(names = "--list", description = "Print the scripted incidents with their times and exit.")
  boolean list;

  @Option(
      names = "--storage.tsdb.path",
      defaultValue = DEFAULT_DATA_DIR,
      description =
          "Data directory of the demo's server, apart from a real one's (default"
              + " ${DEFAULT-VALUE}).")
  Path dataDir;

  @Option(
      names = "--notify.feishu-url",
      description = "Also send the demo's alerts to this Feishu/Lark robot webhook.")
  String feishuUrl;

  @Option(names = "--notify.feishu-secret", description = "That robot's signing secret.")
  String feishuSecret;

  @Option(
      names = "--notify.webhook-url",
      description = "Also send the demo's alerts to this webhook (Alertmanager's JSON).")
  String webhookUrl;

  @Unmatched List<String> serverArgs = new ArrayList<>();

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Duration simulated = parseDuration();
    DemoOptions options;
    try {
      options =
          new DemoOptions(
              speed, seed, simulated, dataDir.resolve("demo"), feishuUrl, feishuSecret, webhookUrl);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    if (list) {
      out.print(DemoScript.listing(speed, simulated));
      out.flush();
      return 0;
    }
    try (RunningDemo demo = RunningDemo.start(options)) {
      out.printf(
          "demo: simulated cluster running at speed %s (rules scaled 1/speed), config %s%n",
          trim(speed), demo.configFile());
      out.print(DemoScript.listing(speed, simulated));
      out.flush();
      return new CommandLine(new ServerCommand())
          .execute(serverArguments(demo).toArray(new String[0]));
    }
  }

  /**
   * The server's command line: the demo's config, logdir, data folder and timing, then the user's.
   */
  List<String> serverArguments(RunningDemo demo) {
    List<String> args = new ArrayList<>();
    args.add("--config.file=" + demo.configFile());
    args.add("--tensorboard.logdir=" + demo.logdir());
    args.add("--storage.tsdb.path=" + dataDir.resolve("tsdb"));
    args.add("--collector.enable=false");
    if (serverArgs.stream().noneMatch(a -> a.startsWith("--query.lookback-delta"))) {
      args.add("--query.lookback-delta=" + millis(demo.lookbackDelta()));
    }
    if (serverArgs.stream().noneMatch(a -> a.startsWith("--tensorboard.poll-interval"))) {
      args.add("--tensorboard.poll-interval=" + millis(demo.scrapeInterval()));
    }
    // A run's stalls, crashes and pace are judged on the compressed clock too, as the rules are:
    // at 20x the pace would otherwise be read over 200 simulated minutes.
    if (serverArgs.stream().noneMatch(a -> a.startsWith("--cockpit.stall-after"))) {
      args.add("--cockpit.stall-after=" + millis(demo.scaled(STALL_AFTER)));
    }
    if (serverArgs.stream().noneMatch(a -> a.startsWith("--cockpit.crash-after"))) {
      args.add("--cockpit.crash-after=" + millis(demo.scaled(CRASH_AFTER)));
    }
    if (serverArgs.stream().noneMatch(a -> a.startsWith("--cockpit.rate-window"))) {
      args.add("--cockpit.rate-window=" + millis(demo.scaled(RATE_WINDOW)));
    }
    if (serverArgs.stream().noneMatch(a -> a.startsWith("--cockpit.detection-window"))) {
      args.add("--cockpit.detection-window=" + millis(demo.scaled(DETECTION_WINDOW)));
    }
    args.addAll(serverArgs);
    return args;
  }

  private Duration parseDuration() {
    try {
      return DurationFormat.parse(duration);
    } catch (RuntimeException e) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--duration: cannot parse \"" + duration + "\": " + e.getMessage());
    }
  }

  private static String millis(Duration d) {
    return d.toMillis() + "ms";
  }

  private static String trim(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }
}
