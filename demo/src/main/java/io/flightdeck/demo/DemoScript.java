package io.flightdeck.demo;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The demo's cluster and its timeline, on the simulated clock: a 16-rank FSDP job on two nodes of
 * eight GPUs, two LoRA runs logging to TensorBoard (one healthy, one whose loss rebounds), and the
 * scripted incidents. At the default speed every incident begins within the first five minutes of
 * real time.
 */
public final class DemoScript {
  public static final String MAIN_RUN = "llama-7b-fsdp";

  /** The LoRA run whose loss rebounds at its second warm-up (TensorBoard). */
  public static final String SIBLING_RUN = "llama-7b-lora-b";

  /** Its healthy twin, one cosine without restart, to compare with (TensorBoard). */
  public static final String BASELINE_RUN = "llama-7b-lora-a";

  public static final int NODES = 2;
  public static final int GPUS_PER_NODE = 8;
  public static final int RANKS = NODES * GPUS_PER_NODE;

  /** The default speed: simulated seconds per real second. */
  public static final double DEFAULT_SPEED = 30;

  /** How long the simulated job lasts by default (simulated time). */
  public static final Duration DEFAULT_DURATION = Duration.ofMinutes(150);

  static final double STEP_SECONDS = 6;
  static final int STEPS_PER_EPOCH = 100;
  static final int MAX_STEPS = 3000;

  static final Duration NAN_START = Duration.ofMinutes(20);
  static final Duration NAN_END = Duration.ofMinutes(25);
  static final int HOT_NODE = 0;
  static final int HOT_GPU = 3;
  static final Duration HOT_START = Duration.ofMinutes(25);
  static final Duration HOT_END = Duration.ofMinutes(45);
  static final Duration LEAK_START = Duration.ofMinutes(30);
  static final Duration LEAK_END = Duration.ofMinutes(80);
  static final int SATURATED_NODE = 1;
  static final Duration NETWORK_START = Duration.ofMinutes(60);
  static final Duration NETWORK_END = Duration.ofMinutes(110);
  static final int HUNG_NODE = 1;
  static final int HUNG_GPU = 5;
  static final Duration HANG_START = Duration.ofMinutes(115);
  static final Duration HANG_END = Duration.ofMinutes(135);
  static final int LOST_NODE = 1;
  static final int LOST_GPU = 2;
  static final Duration XID_AT = Duration.ofMinutes(140);
  static final Duration REBOUND_START = Duration.ofMinutes(70);
  static final Duration REBOUND_END = Duration.ofMinutes(90);

  private DemoScript() {}

  static String hostname(int node) {
    return "node-" + node;
  }

  /**
   * The scripted incidents that begin within {@code duration}, in order of their start, each ending
   * by then; the XID 79 lasts until the end.
   */
  public static List<Incident> incidents(Duration duration) {
    return script(duration).stream()
        .filter(i -> i.start().compareTo(duration) < 0)
        .map(
            i ->
                i.end().compareTo(duration) <= 0
                    ? i
                    : new Incident(
                        i.id(),
                        i.title(),
                        i.run(),
                        i.scope(),
                        i.start(),
                        duration,
                        i.expectedAlerts(),
                        i.alsoAllowed()))
        .toList();
  }

  private static List<Incident> script(Duration duration) {
    Map<String, String> mainRun = Map.of("run", MAIN_RUN);
    return List.of(
        new Incident(
            "nan-loss",
            "Loss becomes NaN on every rank (fp16 overflow)",
            MAIN_RUN,
            mainRun,
            NAN_START,
            NAN_END,
            List.of("TrainingLossNotFinite"),
            List.of("TrainingRunLossSpike", "TrainingRunThroughputDrop")),
        new Incident(
            "hot-gpu",
            "GPU "
                + HOT_GPU
                + " of "
                + hostname(HOT_NODE)
                + " runs hot (fan failure) and throttles",
            MAIN_RUN,
            gpu(HOT_NODE, HOT_GPU),
            HOT_START,
            HOT_END,
            List.of("GPUTemperatureHigh", "TrainingRunStraggler"),
            List.of("GPUThermalThrottling")),
        new Incident(
            "memory-leak",
            "GPU memory grows by a step at every epoch start (data loader caching)",
            MAIN_RUN,
            mainRun,
            LEAK_START,
            LEAK_END,
            List.of("TrainingGPUMemoryLeak", "TrainingRunMemoryStaircase"),
            List.of()),
        new Incident(
            "network-saturation",
            "Network receive of "
                + hostname(SATURATED_NODE)
                + " saturates 4 minutes in 5; throughput falls with it",
            MAIN_RUN,
            mainRun,
            NETWORK_START,
            NETWORK_END,
            List.of("TrainingThroughputDrop", "TrainingRunThroughputDrop"),
            List.of("TrainingRunDataStarvation")),
        new Incident(
            "loss-rebound",
            "Sibling run's loss rebounds at the learning rate's second warm-up",
            SIBLING_RUN,
            Map.of("run", SIBLING_RUN),
            REBOUND_START,
            REBOUND_END,
            List.of("TrainingLossSpike", "TrainingRunLRRewarmup"),
            List.of("TrainingRunLossSpike")),
        new Incident(
            "hung-rank",
            "GPU "
                + HUNG_GPU
                + " of "
                + hostname(HUNG_NODE)
                + " hangs (rank "
                + rank(HUNG_NODE, HUNG_GPU)
                + "); every rank waits on it",
            MAIN_RUN,
            mainRun,
            HANG_START,
            HANG_END,
            List.of("TrainingStalled", "TrainingRunHungRank"),
            List.of("GPUSMLowUtilization", "TrainingRunThroughputDrop")),
        new Incident(
            "xid-79",
            "XID 79: GPU "
                + LOST_GPU
                + " of "
                + hostname(LOST_NODE)
                + " falls off the bus; the job dies",
            MAIN_RUN,
            gpu(LOST_NODE, LOST_GPU),
            XID_AT,
            duration,
            List.of("GPUXIDError", "GPUFellOffTheBus"),
            // The users' GPUXIDCriticalError (increase of DCGM_FI_DEV_XID_ERRORS, shipped as
            // written) misses an Xid that starts a new series under a new err_code label, as the
            // collector's do; GPUXIDError is the pack's rule that catches it. Allowed, not
            // expected.
            List.of("GPUXIDCriticalError")));
  }

  static int rank(int node, int localRank) {
    return node * GPUS_PER_NODE + localRank;
  }

  /** The labels every alert about one GPU carries: its node agent's instance and its index. */
  private static Map<String, String> gpu(int node, int gpu) {
    return Map.of("instance", nodeInstance(node), "gpu", Integer.toString(gpu));
  }

  /** The {@code instance} label of a node's agent (GPU and host metrics). */
  static String nodeInstance(int node) {
    return hostname(node) + ":9400";
  }

  /** The {@code --list} text: each incident with its simulated and real start and end. */
  public static String listing(double speed, Duration duration) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "Scripted incidents at speed %s (simulated time / real time since the demo started):%n",
            trim(speed)));
    for (Incident incident : incidents(duration)) {
      out.append(
          String.format(
              Locale.ROOT,
              "  %-19s %s-%s  (real %s-%s)  %s [%s]%n",
              incident.id(),
              clock(incident.start().toSeconds()),
              clock(incident.end().toSeconds()),
              clock(incident.start().toSeconds() / speed),
              clock(incident.end().toSeconds() / speed),
              incident.title(),
              String.join(", ", incident.expectedAlerts())));
    }
    return out.toString();
  }

  private static String clock(double seconds) {
    long s = Math.round(seconds);
    return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
  }

  static String trim(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }
}
