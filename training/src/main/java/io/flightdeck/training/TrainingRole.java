package io.flightdeck.training;

import io.flightdeck.model.Labels;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Which training quantity a series carries, by metric name or, for TensorBoard scalars, by tag (the
 * role regexes of {@code shared/docs/framework-tags.md}). Names earlier in a role's list are
 * preferred when a run has several.
 */
enum TrainingRole {
  STEP(
      List.of(
          "llm_train_step",
          "train_step",
          "global_step",
          "train_global_step",
          "tensorboard_scalar_step",
          "flightdeck:train_step"),
      TrainingRole.TRAIN_LOSS_TAG),
  LOSS(
      List.of("llm_train_loss", "train_loss", "tensorboard_scalar", "flightdeck:train_loss"),
      TrainingRole.TRAIN_LOSS_TAG),
  SAMPLES_PER_SECOND(
      List.of(
          "llm_train_samples_per_second",
          "train_samples_per_second",
          "training_samples_per_second",
          "tensorboard_scalar",
          "flightdeck:train_samples_per_second"),
      "train/train_samples_per_second|train/(?:device/)?samples_per_sec|time/fps"
          + "|ray/tune/timers/learn_throughput"),
  LEARNING_RATE(
      List.of(
          "llm_train_learning_rate",
          "train_learning_rate",
          "learning_rate",
          "llm_train_lr",
          "llm_learning_rate",
          "tensorboard_scalar"),
      "(?:train/)?learning[-_]rate|lr(?:/[^/]+(?:/[0-9]+)?)?"
          + "|(?:.+/)?lr-[A-Za-z0-9_.]+(?:-[0-9]+)?(?:/[A-Za-z0-9_.]+)?|Train/Samples/lr"
          + "|epoch_learning_rate(?:_.+)?|.+/cur_lr"),
  EPOCH(
      List.of("llm_train_epoch", "train_epoch", "epoch", "tensorboard_scalar"), "(?:train/)?epoch"),
  /**
   * The summary Hugging Face's Trainer (and ms-swift) writes once, when training ends: its presence
   * says the run finished.
   */
  END_SUMMARY(List.of("tensorboard_scalar"), "train/(?:train_runtime|total_flos)"),
  /** Any {@code *_max_steps} gauge also counts; see {@link #rank}. */
  MAX_STEPS(
      List.of("llm_train_max_steps", "max_steps", "tensorboard_scalar"), "(?:train/)?max_steps");

  static final String TRAIN_LOSS_TAG =
      "(?:train[/_])?loss(?:_step|_epoch)?|Train/Samples/train_loss|lm loss"
          + "|loss_metrics/global_avg_loss|(?:epoch|batch)_loss";

  /** Every metric name some role reads, as one regex for a single selection. */
  static final String NAME_REGEX =
      "llm_train_.+|train_.+|global_step|learning_rate|llm_learning_rate|epoch|max_steps|.+_max_steps"
          + "|flightdeck:train_.+|tensorboard_scalar|tensorboard_scalar_step";

  private final List<String> names;
  private final Pattern tags;

  TrainingRole(List<String> names, String tagRegex) {
    this.names = names;
    this.tags = Pattern.compile(tagRegex);
  }

  /**
   * The preference of {@code labels} for this role: 0 is best, larger is worse, -1 when the series
   * does not carry this role.
   */
  int rank(Labels labels) {
    String name = labels.metricName();
    int index = names.indexOf(name);
    if (index < 0) {
      if (this == MAX_STEPS && name.endsWith("_max_steps")) {
        return names.size();
      }
      return -1;
    }
    if (name.startsWith("tensorboard_")) {
      return tags.matcher(labels.get("tag")).matches() ? index : -1;
    }
    return index;
  }
}
