package io.flightdeck.bench;

import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The scrape benchmark's targets, driven by {@code bench/scrape-bench.sh}: {@code --targets N}
 * synthetic exporters ({@link TargetBody}) of {@code --series S} series each, on ports {@code
 * --first-port P} to {@code P + N - 1} of 127.0.0.1, one process and one serving thread. Every
 * value moves at each multiple of {@code --interval-ms} on the wall clock, and all bodies are
 * rendered then, so serving a scrape is a buffer copy. Prints one {@code key=value} line once every
 * port answers, and runs until killed.
 */
public final class ScrapeTargets {
  private static final String USAGE =
      "usage: --targets N --series S --interval-ms I --first-port P [--seed N]";

  private ScrapeTargets() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i < args.length; i += 2) {
      if (!args[i].startsWith("--") || i + 1 == args.length) {
        throw new IllegalArgumentException("expected --name value, got " + args[i] + "; " + USAGE);
      }
      options.put(args[i].substring(2), args[i + 1]);
    }
    for (String name : options.keySet()) {
      if (!Set.of("targets", "series", "interval-ms", "first-port", "seed").contains(name)) {
        throw new IllegalArgumentException("unknown option --" + name + "; " + USAGE);
      }
    }
    int targets = positive(options, "targets");
    int series = positive(options, "series");
    long intervalMs = positive(options, "interval-ms");
    int firstPort = positive(options, "first-port");
    long seed = Long.parseLong(options.getOrDefault("seed", "42"));

    TargetBody[] bodies = new TargetBody[targets];
    for (int i = 0; i < targets; i++) {
      bodies[i] = new TargetBody(i, series, seed);
    }
    TargetServer server = new TargetServer(firstPort, targets);
    int bytes = publish(server, bodies);
    Thread serving = new Thread(server, "targets");
    serving.start();
    ScheduledExecutorService clock =
        Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "targets-values"));
    long delay = intervalMs - System.currentTimeMillis() % intervalMs;
    clock.scheduleAtFixedRate(
        () -> {
          for (TargetBody body : bodies) {
            body.advance();
          }
          publish(server, bodies);
        },
        delay,
        intervalMs,
        TimeUnit.MILLISECONDS);
    System.out.printf(
        "ready targets=%d series=%d first_port=%d body_bytes=%d%n",
        targets, bodies[0].seriesCount(), firstPort, bytes);
    System.out.flush();
    serving.join();
  }

  /** Renders every body and serves the new set; returns the size of the first body. */
  private static int publish(TargetServer server, TargetBody[] bodies) {
    byte[][] rendered = new byte[bodies.length][];
    ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 16);
    for (int i = 0; i < bodies.length; i++) {
      out.reset();
      bodies[i].render(out);
      rendered[i] = out.toByteArray();
    }
    server.publish(rendered);
    return rendered[0].length;
  }

  private static int positive(Map<String, String> options, String name) {
    String text = options.get(name);
    if (text == null) {
      throw new IllegalArgumentException("missing --" + name + "; " + USAGE);
    }
    int value;
    try {
      value = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " must be a whole number, got " + text);
    }
    if (value <= 0) {
      throw new IllegalArgumentException("--" + name + " must be positive, got " + text);
    }
    return value;
  }
}
