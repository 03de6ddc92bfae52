package io.flightdeck.demo;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * A LoRA run beside the main job, logged to TensorBoard as Hugging Face's Trainer would: scalars
 * every {@link #LOG_EVERY} steps, weight histograms, generated text samples and hparams. With a
 * warm restart its learning rate follows a cosine schedule that restarts at {@link
 * DemoScript#REBOUND_START} and its loss rebounds as the second warm-up begins; without, one cosine
 * over the whole run and a loss that keeps falling (the baseline to compare with). Values depend
 * only on the seed, the kind of run and the step.
 */
final class SiblingRun {
  static final double STEP_SECONDS = 4;
  static final int LOG_EVERY = 2;
  private static final int HISTOGRAM_EVERY = 50;
  private static final int TEXT_EVERY = 250;
  private static final int EVAL_EVERY = 150;
  private static final double PEAK_LR = 2e-4;
  private static final String[] PROMPTS = {
    "Summarise: the GPU fell off the bus at 3 a.m.",
    "Translate to French: the loss is not a number.",
    "Write a haiku about a data loader.",
    "Explain FSDP in one sentence."
  };
  private static final String[] ANSWERS = {
    "A GPU failed overnight and the job stopped.",
    "La perte n'est pas un nombre.",
    "Batches pile up / pinned memory never freed / epoch three, OOM.",
    "FSDP shards parameters, gradients and optimizer state across ranks."
  };

  private final long seed;
  private final int maxSteps;
  private final boolean warmRestart;
  private final int restartStep;

  SiblingRun(long seed, long durationSeconds, boolean warmRestart) {
    this.seed = warmRestart ? seed : seed ^ 0x5DEECE66DL;
    this.maxSteps = (int) (durationSeconds / STEP_SECONDS);
    this.warmRestart = warmRestart;
    this.restartStep =
        warmRestart ? (int) (DemoScript.REBOUND_START.toSeconds() / STEP_SECONDS) : maxSteps;
  }

  int maxSteps() {
    return maxSteps;
  }

  /** The step reached at simulated second {@code t}. */
  int stepAt(double simSeconds) {
    return (int) Math.min(maxSteps, Math.floor(simSeconds / STEP_SECONDS));
  }

  double learningRate(int step) {
    boolean second = step >= restartStep;
    int s = second ? step - restartStep : step;
    int length = second ? maxSteps - restartStep : restartStep;
    int warmup = second ? 150 : 75;
    if (s < warmup) {
      return PEAK_LR * (s + 1) / warmup;
    }
    double progressed = Math.min(1, (s - warmup) / (double) Math.max(1, length - warmup));
    return 1e-5 + (PEAK_LR - 1e-5) * 0.5 * (1 + Math.cos(Math.PI * progressed));
  }

  double loss(int step) {
    double rebound = 0;
    if (warmRestart && step >= restartStep) {
      rebound =
          1.2
              * (1 - Math.exp(-(step - restartStep) / 60.0))
              * Math.exp(-Math.max(0, step - restartStep - 150) / 700.0);
    }
    return 0.9 + 1.9 * Math.exp(-step / 280.0) + rebound + 0.025 * gauss(1, step);
  }

  double gradNorm(int step) {
    return 0.6 + 1.5 * learningRate(step) / PEAK_LR + 0.05 * gauss(2, step);
  }

  Map<String, Object> hparams() {
    Map<String, Object> h = new LinkedHashMap<>();
    h.put("learning_rate", PEAK_LR);
    h.put("lr_scheduler_type", warmRestart ? "cosine_with_restarts" : "cosine");
    h.put("lora_r", 16);
    h.put("lora_alpha", 32);
    h.put("per_device_train_batch_size", 4);
    h.put("max_steps", maxSteps);
    return h;
  }

  /** Writes what step {@code step} logs, if anything; {@code wallTime} is its time. */
  void write(EventFileWriter out, int step, double wallTime) throws IOException {
    if (step % LOG_EVERY != 0) {
      return;
    }
    out.scalar("train/loss", step, wallTime, loss(step));
    out.scalar("train/learning_rate", step, wallTime, learningRate(step));
    out.scalar("train/grad_norm", step, wallTime, gradNorm(step));
    out.scalar("train/epoch", step, wallTime, step / 500.0);
    if (step > 0 && step % EVAL_EVERY == 0) {
      out.scalar("eval/loss", step, wallTime, loss(step) + 0.06);
    }
    if (step % HISTOGRAM_EVERY == 0) {
      out.histogram("lora_A/weight", step, wallTime, weights(step), bucketLimits());
    }
    if (step % TEXT_EVERY == 0) {
      int i = new Random(seed * 31 + step).nextInt(PROMPTS.length);
      out.text("samples/generation", step, wallTime, PROMPTS[i] + "\n\n→ " + ANSWERS[i]);
    }
  }

  private double[] weights(int step) {
    Random random = new Random(seed * 17 + step);
    double spread = 0.02 + 0.1 * Math.min(1, step / (double) maxSteps);
    double[] values = new double[256];
    for (int i = 0; i < values.length; i++) {
      values[i] = random.nextGaussian() * spread;
    }
    return values;
  }

  private static double[] bucketLimits() {
    double[] limits = new double[31];
    for (int i = 0; i < 30; i++) {
      limits[i] = -0.5 + (i + 1) * (1.0 / 30);
    }
    limits[30] = Double.MAX_VALUE;
    return limits;
  }

  /**
   * A standard normal value fixed by the seed, the kind and the step. SplittableRandom mixes its
   * seed: java.util.Random's first values for consecutive seeds are close, which made a smooth,
   * wandering "noise" whose jumps the loss-spike detector rightly called spikes.
   */
  private double gauss(int kind, int step) {
    return new SplittableRandom((seed * 0x9E3779B97F4A7C15L + kind) * 0x9E3779B97F4A7C15L + step)
        .nextGaussian();
  }
}
