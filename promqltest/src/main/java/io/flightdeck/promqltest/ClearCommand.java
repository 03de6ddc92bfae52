package io.flightdeck.promqltest;

/** {@code clear}: discard all stored data and continue with an empty storage. */
public record ClearCommand(int line) implements Command {}
