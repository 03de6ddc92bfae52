package io.flightdeck.tsdb.block;

/**
 * Where one chunk of a series lives and which time range it covers (inclusive). The sample count is
 * known when writing; a meta decoded from an index has it 0 (it is in the chunk record).
 */
record ChunkMeta(long minTime, long maxTime, long ref, int count) {}
