package io.flightdeck.tsdb.head;

/**
 * A completed, immutable chunk of one head series. {@code encodedCount} samples are stored in
 * {@code data}; a reader's copy may expose only the first {@code count} of them (isolation). {@code
 * maxSeq} is the highest commit number among its samples, so truncation never drops a sample a
 * block writer did not see.
 */
record HeadChunk(
    byte[] data,
    int encoding,
    int encodedCount,
    int count,
    long minTime,
    long maxTime,
    long maxSeq) {

  HeadChunk withCount(int visible) {
    return new HeadChunk(data, encoding, encodedCount, visible, minTime, maxTime, maxSeq);
  }
}
