package io.flightdeck.tsdb.block;

import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Querier;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.roaringbitmap.RoaringBitmap;

/**
 * One immutable on-disk block, opened and verified. Queriers hold a reference; a block retired by
 * compaction or retention is deleted from disk when its last querier closes. Thread-safe.
 */
public final class Block {
  private final Path dir;
  private final BlockMeta meta;
  private final IndexReader index;
  private final ChunkReader chunks;
  private volatile Tombstones tombstones;
  private final AtomicInteger readers = new AtomicInteger();
  private volatile boolean retired;
  private boolean deleted;

  private Block(
      Path dir, BlockMeta meta, IndexReader index, ChunkReader chunks, Tombstones tombstones) {
    this.dir = dir;
    this.meta = meta;
    this.index = index;
    this.chunks = chunks;
    this.tombstones = tombstones;
  }

  /**
   * Opens a block directory, checking meta, index checksum and chunk file headers.
   *
   * @throws io.flightdeck.tsdb.encoding.CorruptDataException when any part is damaged
   */
  public static Block open(Path dir) throws IOException {
    BlockMeta meta = BlockMeta.read(dir);
    if (!meta.ulid().equals(dir.getFileName().toString())) {
      throw new io.flightdeck.tsdb.encoding.CorruptDataException(
          "meta.json names block " + meta.ulid() + " but the directory is " + dir);
    }
    return new Block(dir, meta, new IndexReader(dir), new ChunkReader(dir), Tombstones.read(dir));
  }

  public BlockMeta meta() {
    return meta;
  }

  public Path dir() {
    return dir;
  }

  /** Bytes on disk: index and chunk files. */
  public long sizeBytes() {
    return index.size() + chunks.totalBytes();
  }

  IndexReader index() {
    return index;
  }

  ChunkReader chunks() {
    return chunks;
  }

  Tombstones tombstones() {
    return tombstones;
  }

  /** A querier over [mint, maxt], or null if the block was retired meanwhile. */
  public Querier querier(long mint, long maxt) {
    readers.incrementAndGet();
    if (retired) {
      release();
      return null;
    }
    return new BlockQuerier(this, mint, maxt);
  }

  void release() {
    if (readers.decrementAndGet() == 0 && retired) {
      deleteFromDisk();
    }
  }

  /** Marks the block for deletion; the files go once no querier uses them. */
  public void retire() {
    retired = true;
    if (readers.get() == 0) {
      deleteFromDisk();
    }
  }

  private synchronized void deleteFromDisk() {
    if (deleted) {
      return;
    }
    deleted = true;
    try {
      BlockWriter.deleteRecursively(dir);
    } catch (IOException e) {
      org.slf4j.LoggerFactory.getLogger(Block.class)
          .warn("could not delete retired block {}: {}", dir, e.toString());
    }
  }

  /** Deletes samples in [mint, maxt] of the matching series; returns how many series matched. */
  public synchronized int delete(long mint, long maxt, Matcher... matchers) throws IOException {
    if (!meta.overlaps(mint, maxt)) {
      return 0;
    }
    RoaringBitmap ids = io.flightdeck.tsdb.index.PostingsSelector.select(index, matchers);
    if (ids.isEmpty()) {
      return 0;
    }
    Tombstones updated = tombstones.with(ids, mint, maxt);
    updated.write(dir);
    tombstones = updated;
    return ids.getCardinality();
  }
}
