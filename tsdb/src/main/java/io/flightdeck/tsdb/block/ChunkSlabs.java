package io.flightdeck.tsdb.block;

import java.util.ArrayList;
import java.util.List;

/**
 * Holds the bytes of many encoded chunks in a few large arrays, slabs, filled one after the other
 * and reused from the first once {@link #clear()}ed. A one-shot import keeps every chunk it encodes
 * until a flush writes them: as arrays of their own, each young collection that found them alive
 * copied them again, and with the import's two threads stopped, those copies were a tenth of a 1 GB
 * TensorBoard import's wall time (bench/README.md). A slab at least as large as the JVM's {@code
 * -XX:PretenureSizeThreshold}, which the launcher sets for imports to {@link #SLAB_BYTES}, is
 * allocated in the old generation and never copied. Not thread-safe.
 */
public final class ChunkSlabs {
  /** The slab size an import uses when its memory bound allows; the launcher pretenures it. */
  public static final int SLAB_BYTES = 2 << 20;

  private final int slabBytes;
  private final List<byte[]> slabs = new ArrayList<>();

  /** The slab being filled, an index in {@link #slabs}; -1 before the first. */
  private int current = -1;

  private int used;

  /**
   * @param slabBytes bytes per slab; raised to what one chunk of the most samples may take
   */
  public ChunkSlabs(int slabBytes) {
    this.slabBytes = Math.max(slabBytes, ChunkEncoder.maxBytes(EncodedChunk.MAX_SAMPLES));
  }

  /**
   * The slab to write the next chunk into, at {@link #position()}, with at least {@code room} bytes
   * free there (at most what a chunk of the most samples may take).
   */
  byte[] reserve(int room) {
    if (current < 0 || slabs.get(current).length - used < room) {
      current++;
      used = 0;
      if (current == slabs.size()) {
        slabs.add(new byte[slabBytes]);
      }
    }
    return slabs.get(current);
  }

  /** Where the next chunk goes in the slab {@link #reserve} gave. */
  int position() {
    return used;
  }

  /** Marks {@code bytes} at {@link #position()} as taken by a chunk. */
  void advance(int bytes) {
    used += bytes;
  }

  /** Makes every slab free again; the chunks written into them must no longer be used. */
  public void clear() {
    current = -1;
    used = 0;
  }

  /** Bytes held in slabs, used or not. */
  public long allocatedBytes() {
    return (long) slabs.size() * slabBytes;
  }
}
