package io.flightdeck.tsdb.chunk;

/** The chunk encodings, by the number stored in chunk records (tsdb/docs/formats.md). */
public final class ChunkEncoding {
  /** Gorilla-style bits; appendable; the head's open chunks and any value. */
  public static final int XOR = 1;

  /** Decimal mantissas under zstd; closed chunks whose values are exact short decimals. */
  public static final int DECIMAL = 2;

  private ChunkEncoding() {}
}
