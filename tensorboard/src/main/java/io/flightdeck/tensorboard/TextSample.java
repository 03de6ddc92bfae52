package io.flightdeck.tensorboard;

import java.util.List;

/**
 * A stored sample of the {@code text} plugin.
 *
 * @param run the run's name relative to the logdir ({@code "."} for the logdir itself)
 * @param values the string tensor's elements in row-major order
 */
public record TextSample(
    String run, String tag, long step, double wallTimeSeconds, List<String> values) {
  public TextSample {
    values = List.copyOf(values);
  }
}
