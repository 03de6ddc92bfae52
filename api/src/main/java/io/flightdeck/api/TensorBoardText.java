package io.flightdeck.api;

import java.util.List;

/**
 * A stored text sample of the TensorBoard {@code text} plugin, as the API returns it.
 *
 * @param logdir the logdir as the user gave it (the {@code logdir} label of its scalars)
 * @param run the run relative to the logdir, {@code "."} for the logdir itself
 * @param wallTimeSeconds the event's wall time, seconds since the epoch
 * @param values the string tensor's elements in row-major order
 */
public record TensorBoardText(
    String logdir, String run, String tag, long step, double wallTimeSeconds, List<String> values) {
  public TensorBoardText {
    values = List.copyOf(values);
  }
}
