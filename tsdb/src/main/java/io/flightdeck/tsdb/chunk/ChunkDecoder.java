package io.flightdeck.tsdb.chunk;

import io.flightdeck.storage.SampleIterator;
import io.flightdeck.tsdb.encoding.CorruptDataException;

/** Turns a stored chunk of any encoding into an iterator. Reusable; not thread-safe. */
public final class ChunkDecoder {
  private final XorIterator xor = new XorIterator();
  private final ArrayIterator decimal = new ArrayIterator();

  /**
   * An iterator over the first {@code visible} of the chunk's {@code encodedCount} samples; the
   * returned iterator is this decoder's, valid until the next call.
   */
  public SampleIterator decode(int encoding, byte[] data, int encodedCount, int visible) {
    return decode(encoding, data, 0, data.length, encodedCount, visible);
  }

  /**
   * As {@link #decode(int, byte[], int, int)}, for a chunk in {@code data[offset, offset +
   * length)}.
   */
  public SampleIterator decode(
      int encoding, byte[] data, int offset, int length, int encodedCount, int visible) {
    return switch (encoding) {
      case ChunkEncoding.XOR -> xor.reset(data, offset, length, visible);
      case ChunkEncoding.DECIMAL ->
          decimal.resetDecimal(data, offset, length, encodedCount, visible);
      default -> throw new CorruptDataException("unknown chunk encoding " + encoding);
    };
  }
}
