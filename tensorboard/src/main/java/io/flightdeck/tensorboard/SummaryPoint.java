package io.flightdeck.tensorboard;

/**
 * One decoded summary value of one event: what a trainer logged under a tag at a step. Steps are
 * passed on exactly as written, including steps that go backwards after a restart; deciding what to
 * keep is the storing layer's job (see {@link RunReader}).
 */
public sealed interface SummaryPoint
    permits ScalarPoint, HistogramPoint, TextPoint, ImagePoint, HParamsPoint, SkippedValue {
  String tag();

  long step();

  /** The event's wall time, seconds since the epoch with a fractional part. */
  double wallTimeSeconds();
}
