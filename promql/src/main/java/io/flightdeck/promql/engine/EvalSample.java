package io.flightdeck.promql.engine;

import io.flightdeck.model.Labels;

/**
 * One element of an instant vector during evaluation of a single step. {@code timestamp} is the
 * step's time, except where {@code timestamp()} needs the sample's own.
 */
record EvalSample(Labels labels, double value, boolean dropName) {

  EvalSample withValue(double newValue) {
    return new EvalSample(labels, newValue, dropName);
  }
}
