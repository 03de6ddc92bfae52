package io.flightdeck.promql.engine;

/**
 * What a query cost, as Prometheus reports under {@code stats}: time spent queued for a slot and
 * evaluating (seconds), samples read from storage and the most samples held at once.
 */
public record QueryStats(
    double execQueueTimeSeconds,
    double evalTotalTimeSeconds,
    long totalQueryableSamples,
    long peakSamples) {}
