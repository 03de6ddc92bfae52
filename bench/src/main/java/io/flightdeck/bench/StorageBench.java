package io.flightdeck.bench;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Command line of the storage ingestion benchmark, driven by {@code bench/storage-bench.sh}:
 *
 * <pre>
 * encode --out FILE [--hours 6] [--seed 42] [--cpus 128] [--max-samples-per-send 2000]
 * send   --url URL --file FILE [--connections 4]
 * </pre>
 *
 * Both print one line of {@code key=value} pairs for the script to parse.
 */
public final class StorageBench {

  private StorageBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      throw usage("missing command");
    }
    Map<String, String> options = parse(args);
    switch (args[0]) {
      case "encode" -> encode(options);
      case "send" -> send(options);
      default -> throw usage("unknown command " + args[0]);
    }
  }

  private static void encode(Map<String, String> options) throws Exception {
    allow(options, "out", "hours", "seed", "cpus", "max-samples-per-send");
    long seed = Long.parseLong(options.getOrDefault("seed", "42"));
    Duration duration =
        Duration.ofSeconds(
            Math.round(Double.parseDouble(options.getOrDefault("hours", "6")) * 3600));
    int cpus = Integer.parseInt(options.getOrDefault("cpus", "128"));
    int maxSamplesPerSend = Integer.parseInt(options.getOrDefault("max-samples-per-send", "2000"));
    Workload workload = new WorkloadGenerator(seed, cpus).generate(duration, Instant.now());
    WorkloadEncoder.Encoded encoded =
        new WorkloadEncoder(maxSamplesPerSend, seed)
            .encode(workload, Path.of(required(options, "out")));
    System.out.printf(
        Locale.ROOT,
        "series=%d slices=%d samples=%d requests=%d start_ms=%d compressed_bytes=%d%n",
        workload.series().size(),
        workload.slices(),
        workload.samples(),
        encoded.requests(),
        workload.startMs(),
        encoded.bodyBytes());
  }

  private static void send(Map<String, String> options) throws Exception {
    allow(options, "url", "file", "connections");
    int connections = Integer.parseInt(options.getOrDefault("connections", "4"));
    try (RequestFile file = RequestFile.open(Path.of(required(options, "file")))) {
      Sender.Result result =
          new Sender(URI.create(required(options, "url")), connections).send(file);
      System.out.printf(
          Locale.ROOT,
          "samples=%d requests=%d seconds=%.3f samples_per_second=%.0f%n",
          result.samples(),
          result.requests(),
          result.wall().toNanos() / 1e9,
          result.samplesPerSecond());
    }
  }

  private static Map<String, String> parse(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (int i = 1; i < args.length; i += 2) {
      if (!args[i].startsWith("--") || i + 1 == args.length) {
        throw usage("expected --name value, got " + args[i]);
      }
      options.put(args[i].substring(2), args[i + 1]);
    }
    return options;
  }

  private static void allow(Map<String, String> options, String... names) {
    for (String name : options.keySet()) {
      if (!Set.of(names).contains(name)) {
        throw usage("unknown option --" + name);
      }
    }
  }

  private static String required(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null) {
      throw usage("missing --" + name);
    }
    return value;
  }

  private static IllegalArgumentException usage(String problem) {
    return new IllegalArgumentException(
        problem
            + "; usage: encode --out FILE [--hours H] [--seed N] [--cpus N] [--max-samples-per-send N]"
            + " | send --url URL --file FILE [--connections N]");
  }
}
