package io.flightdeck.api;

import java.util.List;

/**
 * The text samples of every watched logdir, as the app's text stores hold them. Reads see only the
 * current samples: one that a later sample of a lower or equal step superseded (a job resumed from
 * a checkpoint) is left out, as TensorBoard does.
 *
 * <p>Contract: thread-safe, called by concurrent requests while ingestion appends. Returned lists
 * are immutable snapshots the caller may keep.
 */
public interface TensorBoardTexts {
  /** The logdirs, sorted. */
  List<String> logdirs();

  /** Runs of a logdir with at least one text sample, sorted; empty for an unknown logdir. */
  List<String> runs(String logdir);

  /** Text tags of a run, sorted; empty when unknown. */
  List<String> tags(String logdir, String run);

  /** Samples of one run and tag with {@code minStep <= step <= maxStep}, by step. */
  List<TensorBoardText> fetch(String logdir, String run, String tag, long minStep, long maxStep);

  /**
   * Samples with an element containing {@code needle} (case-sensitive), ordered by logdir, run, tag
   * and step, at most {@code limit} of them.
   */
  List<TensorBoardText> search(String needle, int limit);
}
