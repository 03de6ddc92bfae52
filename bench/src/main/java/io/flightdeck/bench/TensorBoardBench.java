package io.flightdeck.bench;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Command line of the TensorBoard import benchmark, driven by {@code bench/tensorboard-bench.sh}:
 *
 * <pre>
 * generate --out DIR --size-mb N [--runs R] [--seed 42] [--edges fixed|moving]
 * scan     --logdir DIR
 * </pre>
 *
 * Both print one line of {@code key=value} pairs for the script to parse.
 */
public final class TensorBoardBench {
  private static final String USAGE =
      "usage: generate --out DIR --size-mb N [--runs R] [--seed N] [--edges fixed|moving]"
          + " | scan --logdir DIR";

  private TensorBoardBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      throw new IllegalArgumentException("missing command; " + USAGE);
    }
    Map<String, String> options = new HashMap<>();
    for (int i = 1; i < args.length; i += 2) {
      if (!args[i].startsWith("--") || i + 1 == args.length) {
        throw new IllegalArgumentException("expected --name value, got " + args[i] + "; " + USAGE);
      }
      options.put(args[i].substring(2), args[i + 1]);
    }
    switch (args[0]) {
      case "generate" -> generate(options);
      case "scan" -> scan(options);
      default -> throw new IllegalArgumentException("unknown command " + args[0] + "; " + USAGE);
    }
  }

  private static void generate(Map<String, String> options) throws Exception {
    allow(options, "out", "size-mb", "runs", "seed", "edges");
    String edges = options.getOrDefault("edges", "fixed");
    if (!edges.equals("fixed") && !edges.equals("moving")) {
      throw new IllegalArgumentException("--edges must be fixed or moving, got " + edges);
    }
    long sizeMb = Long.parseLong(required(options, "size-mb"));
    // Many runs, one per 16 MB and at least 8, as a sweep of trials makes.
    int runs =
        options.containsKey("runs")
            ? Integer.parseInt(options.get("runs"))
            : (int) Math.max(8, sizeMb / 16);
    long seed = Long.parseLong(options.getOrDefault("seed", "42"));
    long began = System.nanoTime();
    SyntheticLogdir.Written w =
        new SyntheticLogdir(seed, edges.equals("moving"))
            .write(
                Path.of(required(options, "out")),
                sizeMb * 1_000_000,
                runs,
                System.currentTimeMillis() / 1000.0);
    System.out.printf(
        Locale.ROOT,
        "runs=%d records=%d bytes=%d steps_per_run=%d seconds=%.1f%n",
        w.runs(),
        w.records(),
        w.bytes(),
        w.stepsPerRun(),
        (System.nanoTime() - began) / 1e9);
  }

  private static void scan(Map<String, String> options) throws Exception {
    allow(options, "logdir");
    long began = System.nanoTime();
    TfRecordScan.Result r = new TfRecordScan().scan(Path.of(required(options, "logdir")));
    System.out.printf(
        Locale.ROOT,
        "files=%d records=%d bytes=%d bad_crcs=%d seconds=%.3f%n",
        r.files(),
        r.records(),
        r.bytes(),
        r.badCrcs(),
        (System.nanoTime() - began) / 1e9);
  }

  private static void allow(Map<String, String> options, String... names) {
    for (String name : options.keySet()) {
      if (!Set.of(names).contains(name)) {
        throw new IllegalArgumentException("unknown option --" + name + "; " + USAGE);
      }
    }
  }

  private static String required(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null) {
      throw new IllegalArgumentException("missing --" + name + "; " + USAGE);
    }
    return value;
  }
}
