package io.flightdeck.training;

import java.util.Map;

/**
 * A series that moved with a target, as {@code POST /api/v1/runs/{run}/correlate} lists it.
 *
 * @param metric its labels, {@code __name__} included (a counter's name stays, its rate is
 *     compared; per-CPU series are summed by mode, without their {@code cpu} label)
 * @param score {@code |correlation| × (0.5 + 0.5 × change)}, from 0 to 1
 * @param sign +1 when it moved the target's way, -1 the other way
 * @param lagSeconds how long its moves come before the target's (negative: after)
 * @param correlation the rank correlation of first differences at that lag
 * @param change how far its window's median left the baseline's, from 0 (not at all) towards 1
 * @param rate whether it is a counter, compared as its per-second rate
 */
public record Mover(
    Map<String, String> metric,
    double score,
    int sign,
    double lagSeconds,
    double correlation,
    double change,
    boolean rate) {}
