package io.flightdeck.api;

import java.util.List;
import java.util.Optional;

/**
 * The images of every watched logdir, as the app's image stores hold them. Reads see only the
 * current images: those of an event that a later event of a lower or equal step superseded are left
 * out, as TensorBoard does.
 *
 * <p>Contract: thread-safe, called by concurrent requests while ingestion appends. Returned lists
 * are immutable snapshots the caller may keep.
 */
public interface TensorBoardImages {
  /** The logdirs, sorted. */
  List<String> logdirs();

  /** Runs of a logdir with at least one image, sorted; empty for an unknown logdir. */
  List<String> runs(String logdir);

  /** Image tags of a run, sorted; empty when unknown. */
  List<String> tags(String logdir, String run);

  /** Images of one run and tag with {@code minStep <= step <= maxStep}, by step and index. */
  List<TensorBoardImage> list(String logdir, String run, String tag, long minStep, long maxStep);

  /** The current image at this step and index; empty when there is none. */
  Optional<TensorBoardImageBytes> read(String logdir, String run, String tag, long step, int index);
}
