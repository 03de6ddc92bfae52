package io.flightdeck.tensorboard;

import java.util.List;

/**
 * Text samples (the {@code text} plugin) of one logdir, keyed by run, tag, step and wall time.
 *
 * <p>Reads follow TensorBoard's preemption rule per run and tag: a sample with step {@code s}
 * supersedes every earlier-stored sample of that run and tag whose step is {@code >= s} (a job
 * resumed from a checkpoint recomputes those steps). Superseded samples stay stored but are no
 * longer returned by {@link #fetch} or {@link #search}.
 *
 * <p>Contract: implementations are thread-safe; one thread appends while others read. Returned
 * lists are immutable snapshots the caller may keep. An append is visible to reads at once and
 * durable after {@link #sync()}. After {@link #close()} no method may be called.
 */
public interface TextStore extends SteppedSampleStore {
  /**
   * Stores a sample unless one with the same run, tag, step and wall time is already stored (a
   * re-read of the same event file after a restart).
   *
   * @return true if the sample was new
   * @throws StoreFileException if it cannot be written
   */
  boolean append(String run, TextPoint point);

  /** The current samples of a run and tag with {@code minStep <= step <= maxStep}, by step. */
  List<TextSample> fetch(String run, String tag, long minStep, long maxStep);

  /**
   * Current samples with an element containing {@code needle} (case-sensitive), ordered by run, tag
   * and step, at most {@code limit} of them.
   */
  List<TextSample> search(String needle, int limit);
}
