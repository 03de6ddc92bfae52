package io.flightdeck.tensorboard;

/**
 * A scalar: a legacy {@code simple_value} (float32 widened to double) or a rank-0 tensor of the
 * {@code scalars} plugin (float32 or float64).
 */
public record ScalarPoint(String tag, long step, double wallTimeSeconds, double value)
    implements SummaryPoint {}
