package io.flightdeck.tsdb.wal;

/**
 * One damaged byte range of a segment, {@code [start, end)}, and what it cost: the records whose
 * frames it covers and the samples in them, read from the frames' own lengths and entry counts as
 * far as those still make sense. {@code exact} is false when they do not (the damage hit a length
 * or a count), and the figures are then a lower bound.
 */
record WalDamage(long start, long end, String reason, long records, long samples, boolean exact) {

  /** Smallest sample entry: ref and timestamp of one byte each, and the 8-byte value. */
  private static final int MIN_SAMPLE_ENTRY = 10;

  static WalDamage of(byte[] bytes, int start, int end, String reason) {
    long records = 0;
    long samples = 0;
    boolean exact = true;
    int at = start;
    while (at < end) {
      if (end - at < WalSegments.FRAME_HEADER_SIZE) {
        exact = false;
        break;
      }
      int length = WalSegmentReader.length(bytes, at);
      int payload = at + WalSegments.FRAME_HEADER_SIZE;
      if (length < 4 || length > end - payload) {
        exact = false;
        break;
      }
      records++;
      if ((bytes[at] & 0xff) == WalRecordCodec.SAMPLES) {
        int entries = WalSegmentReader.readInt(bytes, payload);
        if (entries >= 0 && entries <= (length - 4) / MIN_SAMPLE_ENTRY) {
          samples += entries;
        } else {
          exact = false;
        }
      }
      at = payload + length;
    }
    return new WalDamage(start, end, reason, Math.max(1, records), samples, exact && at == end);
  }

  String describe() {
    String bound = exact ? "" : "at least ";
    return reason
        + " (bytes "
        + start
        + "-"
        + end
        + ": "
        + bound
        + records
        + (records == 1 ? " record, " : " records, ")
        + bound
        + samples
        + " samples lost)";
  }
}
