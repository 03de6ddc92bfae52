package io.flightdeck.bench;

/**
 * How busy the training job is at each scrape: steady training broken by a checkpoint every 30
 * minutes. Every model reads it, so GPU, host and training series move together as they do on a
 * real cluster (GPUs idle and disks write while a checkpoint is saved).
 */
final class TrainingSchedule {

  private static final int CHECKPOINT_EVERY_SLICES = 120;
  private static final int CHECKPOINT_SLICES = 4;
  private static final double CHECKPOINT_ACTIVITY = 0.05;

  private TrainingSchedule() {}

  /** 1 while training, close to 0 while a checkpoint is written. */
  static double activity(int slice) {
    return checkpointing(slice) ? CHECKPOINT_ACTIVITY : 1;
  }

  static boolean checkpointing(int slice) {
    return slice % CHECKPOINT_EVERY_SLICES >= CHECKPOINT_EVERY_SLICES - CHECKPOINT_SLICES;
  }
}
