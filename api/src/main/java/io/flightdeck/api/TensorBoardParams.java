package io.flightdeck.api;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;

/** The parameters the TensorBoard endpoints share: which series, and step bounds. */
final class TensorBoardParams {
  private TensorBoardParams() {}

  /** A parameter that must be present and non-empty. */
  static String required(Params params, String name) {
    String value = params.get(name);
    if (value.isEmpty()) {
      throw ApiException.invalidParam(name, "missing or empty");
    }
    return value;
  }

  /** An optional integer step, {@code fallback} when absent. */
  static long step(Params params, String name, long fallback) {
    String value = params.get(name);
    if (value.isEmpty()) {
      return fallback;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw ApiException.invalidParam(name, "not an integer step: " + value);
    }
  }

  /** An integer step that must be present. */
  static long requiredStep(Params params, String name) {
    required(params, name);
    return step(params, name, 0);
  }

  /** Matchers for one metric of the series named by {@code logdir}, {@code run} and {@code tag}. */
  static Matcher[] series(Params params, String metric) {
    return new Matcher[] {
      Matcher.equal(Labels.METRIC_NAME, metric),
      Matcher.equal("logdir", required(params, "logdir")),
      Matcher.equal("run", required(params, "run")),
      Matcher.equal("tag", required(params, "tag"))
    };
  }
}
