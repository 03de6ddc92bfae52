package io.flightdeck.api;

import java.util.List;

/**
 * The hparams run metadata of every watched logdir, as the app's hparams stores hold it.
 *
 * <p>Contract: thread-safe, called by concurrent requests while ingestion appends. Returned lists
 * are immutable snapshots the caller may keep.
 */
public interface TensorBoardHParams {
  /** Runs of a logdir with hparams metadata, by run; empty for an unknown logdir. */
  List<TensorBoardRunHParams> runs(String logdir);

  /** The logdirs, sorted. */
  List<String> logdirs();
}
