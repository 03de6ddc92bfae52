package io.flightdeck.promqltest;

/** A value at a timestamp in milliseconds since the test epoch (Unix time 0). */
public record Sample(long timestampMs, SampleValue value) {}
