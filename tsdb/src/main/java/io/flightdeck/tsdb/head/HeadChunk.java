package io.flightdeck.tsdb.head;

/**
 * A completed, immutable XOR chunk of one head series; {@code maxSeq} is the highest commit number
 * among its samples, so truncation never drops a sample a block writer did not see.
 */
record HeadChunk(byte[] data, int count, long minTime, long maxTime, long maxSeq) {}
