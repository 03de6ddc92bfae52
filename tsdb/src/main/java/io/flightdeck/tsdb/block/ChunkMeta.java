package io.flightdeck.tsdb.block;

/** Where one chunk of a series lives and which time range it covers (inclusive). */
record ChunkMeta(long minTime, long maxTime, long ref) {}
