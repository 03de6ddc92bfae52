package io.flightdeck.tsdb;

import io.flightdeck.model.Labels;
import io.flightdeck.storage.Appendable;
import io.flightdeck.storage.Appender;
import io.flightdeck.tsdb.block.Block;
import io.flightdeck.tsdb.block.BlockMeta;
import io.flightdeck.tsdb.block.ChunkSlabs;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a one-shot import straight to blocks, past the head and the WAL, as {@code promtool tsdb
 * create-blocks-from} does: committed samples are buffered compressed and, whenever the buffer
 * passes {@code maxBufferedBytes} (see below for several threads) and at {@link #finish()}, written
 * as one block per block-range window. Memory stays bounded by that setting whatever the import's
 * size, and samples of any age are taken: nothing here is "behind the head".
 *
 * <p>Several threads may append at once, each to a lane of its own ({@link ImportLane}) that
 * buffers its series without waiting for the others; the bound is shared evenly among the lanes, a
 * lane whose buffer passes its share writes it to blocks on its thread, and {@link #finish()}
 * writes every lane's rest as one block per window. A series gets all its samples from one thread:
 * a series new to a lane that another lane has is refused.
 *
 * <p>Acknowledged means "in a block": nothing is durable before {@link #flush()} or {@link
 * #finish()} returns, so an import that dies is run again (re-importing the same samples adds
 * nothing). {@link #finish()} merges the blocks that overlap blocks already there, so a sample
 * imported twice is stored once; where two blocks hold different values at one timestamp, the block
 * that starts earlier (then the older block) wins, as in every merge.
 *
 * <p>Each series' samples must come in increasing time order; an older or repeated timestamp is
 * refused as by the head (a repeat with the same value is a no-op). Metadata is not kept. One
 * appender at a time per thread.
 */
public final class BlockImport implements Appendable {
  private static final Logger log = LoggerFactory.getLogger(BlockImport.class);

  /** The least number of chunk slabs the memory bound holds (see {@link ChunkSlabs}). */
  private static final int SLABS_PER_BOUND = 8;

  private final Tsdb tsdb;
  private final BlockSet blocks;
  private final TsdbOptions options;
  private final long maxBufferedBytes;
  private final int slabBytes;
  private final List<ImportLane> lanes = new CopyOnWriteArrayList<>();
  private final ThreadLocal<ImportLane> threadLane = new ThreadLocal<>();

  /** The lane of each series, which only that lane's thread may append to. */
  private final Map<Labels, ImportLane> seriesLanes = new ConcurrentHashMap<>();

  private final ImportBlockWriter writer;
  private final AtomicLong blocksWritten = new AtomicLong();

  /** The blocks there before the import began: re-imported samples may be in them. */
  private final Set<String> earlierBlocks = new HashSet<>();

  private volatile boolean finished;

  BlockImport(Tsdb tsdb, BlockSet blocks, TsdbOptions options, long maxBufferedBytes) {
    if (maxBufferedBytes < 1) {
      throw new IllegalArgumentException("maxBufferedBytes must be positive: " + maxBufferedBytes);
    }
    this.tsdb = tsdb;
    this.blocks = blocks;
    this.options = options;
    this.maxBufferedBytes = maxBufferedBytes;
    this.writer = new ImportBlockWriter(blocks, options);
    // A slab an eighth of the bound at most: a small bound is not overshot by a slab's free end.
    // Each lane fills slabs of its own, so a bound split among many lanes may be passed by up to
    // a slab per lane.
    this.slabBytes = (int) Math.min(ChunkSlabs.SLAB_BYTES, maxBufferedBytes / SLABS_PER_BOUND);
    for (Block block : blocks.list()) {
      earlierBlocks.add(block.meta().ulid());
    }
  }

  /**
   * A batch of the calling thread's lane, buffered on commit (written to a block once the lane's
   * buffer is full, or by {@link #finish()}).
   *
   * @throws IllegalStateException while the thread's other appender is open, or after {@link
   *     #finish()}
   */
  @Override
  public Appender appender() {
    if (finished) {
      throw new IllegalStateException("the block import is finished");
    }
    ImportLane lane = threadLane.get();
    if (lane == null) {
      lane = new ImportLane(this, options, slabBytes);
      lanes.add(lane);
      threadLane.set(lane);
    }
    return lane.appender();
  }

  /** Each lane's share of the bound: a lane writes blocks once it buffers more. */
  long laneBound() {
    return Math.max(1, maxBufferedBytes / lanes.size());
  }

  /** Compressed samples waiting to be written, with their per-chunk overhead, in all lanes. */
  public long bufferedBytes() {
    return lanes.stream().mapToLong(ImportLane::bufferedBytes).sum();
  }

  public long blocksWritten() {
    return blocksWritten.get();
  }

  /**
   * Writes every buffered sample of every lane to blocks, one per block-range window, and empties
   * the buffers. The blocks are durable and queryable when this returns. No thread may append
   * meanwhile.
   *
   * @throws IllegalStateException while an appender is open: its samples are not committed yet
   */
  public void flush() throws IOException {
    ensureNoAppenderOpen();
    write(lanes);
    collectFlushedBuffer();
  }

  /**
   * Writes what is buffered and, when the import's blocks overlap blocks that were there before it
   * began (a re-import, say), merges the overlapping blocks so that no sample is stored twice. The
   * import's own blocks may overlap each other (windows written by several flushes or lanes) but
   * never hold a sample twice, so they are left for the server's compaction to merge. The import is
   * complete and durable when this returns. No appender may be used afterwards, and no thread may
   * append meanwhile.
   */
  public void finish() throws IOException, InterruptedException {
    ensureNoAppenderOpen();
    finished = true;
    // No collection: no buffer follows the last ones (a full collection of a 1 GB import's heap
    // took 40 ms).
    write(lanes);
    if (overlapsEarlierBlocks()) {
      // Only a merge comes after the last buffers, which the lanes leave to this call to collect.
      System.gc();
      tsdb.mergeOverlappingBlocks();
    }
  }

  /**
   * Writes the buffers of {@code lanes} as one block per window, whose series come from every lane
   * (no series is in two), and empties them.
   */
  void write(List<ImportLane> lanes) throws IOException {
    List<ImportedSeries> series = new ArrayList<>();
    long bytes = 0;
    for (ImportLane lane : lanes) {
      series.addAll(lane.sealBuffer());
      bytes += lane.bufferedBytes();
    }
    if (series.isEmpty()) {
      return;
    }
    long began = System.nanoTime();
    ImportBlockWriter.Written written = writer.write(series);
    lanes.forEach(ImportLane::emptyBuffer);
    blocksWritten.addAndGet(written.blocks());
    log.info(
        "import wrote {} blocks, {} samples, {} buffered bytes in {} ms",
        written.blocks(),
        written.samples(),
        bytes,
        (System.nanoTime() - began) / 1_000_000);
  }

  /**
   * Takes {@code labels} for {@code lane}, which is creating the series.
   *
   * @throws IllegalStateException when another lane (another thread) has the series
   */
  void claim(Labels labels, ImportLane lane) {
    ImportLane owner = seriesLanes.putIfAbsent(labels, lane);
    if (owner != null && owner != lane) {
      throw new IllegalStateException(
          "series " + labels + " was appended to a block import from two threads");
    }
  }

  /**
   * Collects a buffer just flushed. It lived long enough to reach the old generation, and a
   * collector left to itself grows that generation for the next buffer instead of collecting this
   * one: without this call a 1 GB import bounded at 8MB peaked at 310 MiB RSS, with it at 135 MiB
   * (bench/README.md). One full collection per flush costs little beside writing the blocks.
   */
  static void collectFlushedBuffer() {
    System.gc();
  }

  private void ensureNoAppenderOpen() {
    for (ImportLane lane : lanes) {
      if (lane.appenderOpen()) {
        throw new IllegalStateException("an appender of the import is still open");
      }
    }
  }

  private boolean overlapsEarlierBlocks() {
    for (Block block : blocks.list()) {
      BlockMeta meta = block.meta();
      if (earlierBlocks.contains(meta.ulid())) {
        for (Block other : blocks.list()) {
          BlockMeta mine = other.meta();
          if (!earlierBlocks.contains(mine.ulid())
              && mine.minTime() < meta.maxTime()
              && meta.minTime() < mine.maxTime()) {
            return true;
          }
        }
      }
    }
    return false;
  }
}
