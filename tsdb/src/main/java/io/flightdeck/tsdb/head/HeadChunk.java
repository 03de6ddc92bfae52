package io.flightdeck.tsdb.head;

/** A completed, immutable XOR chunk of one head series. */
record HeadChunk(byte[] data, int count, long minTime, long maxTime) {}
