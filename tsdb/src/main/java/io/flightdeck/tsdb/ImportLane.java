package io.flightdeck.tsdb;

import io.flightdeck.model.Labels;
import io.flightdeck.storage.Appendable;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.InvalidLabelsException;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.Series;
import io.flightdeck.storage.SeriesSet;
import io.flightdeck.storage.StorageException;
import io.flightdeck.tsdb.block.Block;
import io.flightdeck.tsdb.block.BlockMeta;
import io.flightdeck.tsdb.block.BlockWriter;
import io.flightdeck.tsdb.block.ChunkSlabs;
import io.flightdeck.tsdb.block.EncodedChunk;
import io.flightdeck.tsdb.block.EncodedChunkedSeries;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The part of a {@link BlockImport} that one thread appends to: its series, their buffered chunks,
 * and the blocks it writes of them whenever its buffer passes its share of the import's bound. A
 * lane's series are its own; lanes never wait for each other. One appender at a time, on the lane's
 * thread.
 */
final class ImportLane implements Appendable {
  private static final Logger log = LoggerFactory.getLogger(ImportLane.class);

  /** Commits without a sample after which a series' open chunk is encoded (see {@link #commit}). */
  static final int IDLE_COMMITS = 2;

  private final BlockImport owner;
  private final BlockSet blocks;
  private final TsdbOptions options;
  private final long window;
  private final Map<Labels, ImportedSeries> byLabels = new HashMap<>();

  /** The series by reference minus one: an array, as every append looks one up here. */
  private ImportedSeries[] byRef = new ImportedSeries[1024];

  private int seriesCount;
  private final List<ImportedSeries> buffered = new ArrayList<>();

  /** The series holding an open chunk: at most a few hundred at a time (see {@link #commit}). */
  private final List<ImportedSeries> withOpenChunk = new ArrayList<>();

  /** The series the open appender gave samples, each once: one list serves every batch. */
  private final List<ImportedSeries> touched = new ArrayList<>();

  private final OpenChunkArrays openChunkArrays = new OpenChunkArrays();
  private final ChunkSlabs slabs;

  private long bufferedBytes;
  private long commits;
  private long batches;
  private long blocksWritten;
  private volatile boolean appenderOpen;

  /**
   * @param slabBytes the size of the slabs that hold the lane's encoded chunks
   */
  ImportLane(BlockImport owner, BlockSet blocks, TsdbOptions options, int slabBytes) {
    this.owner = owner;
    this.blocks = blocks;
    this.options = options;
    this.window = options.blockRange().toMillis();
    this.slabs = new ChunkSlabs(slabBytes);
  }

  /**
   * A batch that is buffered on commit (written to a block once the lane's buffer is full, or by
   * {@link BlockImport#finish()}).
   *
   * @throws IllegalStateException while the lane's other appender is open, or after the import
   *     finished
   */
  @Override
  public Appender appender() {
    owner.ensureNotFinished();
    if (appenderOpen) {
      throw new IllegalStateException("a block import takes one appender at a time per thread");
    }
    appenderOpen = true;
    return new BlockImportAppender(
        this, ++batches, options.clock().millis() + options.futureTolerance().toMillis(), touched);
  }

  boolean appenderOpen() {
    return appenderOpen;
  }

  /** Compressed samples waiting to be written, with their per-chunk overhead. */
  long bufferedBytes() {
    return bufferedBytes;
  }

  long blocksWritten() {
    return blocksWritten;
  }

  /** The series for {@code ref} (from an earlier append) or for {@code labels}, created if new. */
  ImportedSeries series(long ref, Labels labels) {
    // A reference from an earlier append with the very labels it was given: nearly every call,
    // in a method small enough for C1 to inline into the appender's loop.
    if (ref > 0 && ref <= seriesCount) {
      ImportedSeries s = byRef[(int) ref - 1];
      if (s.labels == labels) {
        return s;
      }
    }
    return lookUp(ref, labels);
  }

  private ImportedSeries lookUp(long ref, Labels labels) {
    if (ref > 0 && ref <= seriesCount) {
      ImportedSeries s = byRef[(int) ref - 1];
      if (s.labels.equals(labels)) {
        return s;
      }
    }
    ImportedSeries s = byLabels.get(labels);
    if (s == null) {
      if (labels.metricName().isEmpty()) {
        throw new InvalidLabelsException(
            StorageException.withContext("series has no metric name (__name__)", "series", labels));
      }
      s = new ImportedSeries(seriesCount + 1, labels, window, openChunkArrays, slabs);
      if (seriesCount == byRef.length) {
        byRef = Arrays.copyOf(byRef, 2 * seriesCount);
      }
      byRef[seriesCount++] = s;
      byLabels.put(labels, s);
    }
    return s;
  }

  /**
   * Takes a committed batch: its series encode the chunks it completed; writes blocks when the
   * lane's buffer passes its share of the import's bound.
   *
   * <p>An open chunk holds its samples as they came (16 bytes each), against a few bits once
   * encoded; imports write series by series (a run's, then the next run's), so a series that got no
   * sample in the last {@link #IDLE_COMMITS} commits is likely done for a while: its chunk is
   * encoded then instead of at the flush, which keeps few chunks open whatever the import's size.
   */
  void commit() {
    commits++;
    for (ImportedSeries s : touched) {
      if (!s.listed) {
        s.listed = true;
        buffered.add(s);
      }
      if (!s.open) {
        s.open = true;
        withOpenChunk.add(s);
      }
      s.lastCommit = commits;
      bufferedBytes += s.commitPending();
    }
    touched.clear();
    appenderOpen = false;
    sealIdleSeries();
    if (bufferedBytes > owner.laneBound()) {
      try {
        flush(true);
      } catch (IOException e) {
        throw new UncheckedIOException("writing imported samples to blocks failed", e);
      }
    }
  }

  private void sealIdleSeries() {
    int kept = 0;
    for (ImportedSeries s : withOpenChunk) {
      if (s.lastCommit > commits - IDLE_COMMITS) {
        withOpenChunk.set(kept++, s);
      } else {
        bufferedBytes += s.seal();
        s.open = false;
      }
    }
    withOpenChunk.subList(kept, withOpenChunk.size()).clear();
  }

  void rollback() {
    for (ImportedSeries s : touched) {
      s.rollbackPending();
    }
    touched.clear();
    appenderOpen = false;
  }

  /**
   * Writes every buffered sample to blocks, one per block-range window, and empties the buffer. The
   * windows are written in parallel, two per core. The blocks are durable and queryable when this
   * returns.
   *
   * @param collect whether to collect the emptied buffer (see below): not on the last flush, after
   *     which no buffer follows (a full collection of a 1 GB import's heap took 40 ms)
   */
  void flush(boolean collect) throws IOException {
    if (buffered.isEmpty()) {
      return;
    }
    buffered.sort(Comparator.comparing(s -> s.labels));
    TreeSet<Long> windows = new TreeSet<>();
    for (ImportedSeries s : withOpenChunk) {
      s.seal();
      s.open = false;
    }
    withOpenChunk.clear();
    for (ImportedSeries s : buffered) {
      s.addWindows(windows);
    }
    long began = System.nanoTime();
    // Twice as many writers as cores: each waits for its syncs several times per block, while the
    // others go on.
    int threads = Math.min(windows.size(), 2 * Runtime.getRuntime().availableProcessors());
    ExecutorService writers =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "block-import-writer");
              t.setDaemon(true);
              return t;
            });
    List<Future<BlockMeta>> written = new ArrayList<>();
    try {
      long now = options.clock().millis();
      for (long start : windows) {
        written.add(
            writers.submit(
                () ->
                    BlockWriter.write(
                        blocks.dir(),
                        start,
                        start + window,
                        new WindowSeries(start),
                        1,
                        List.of(),
                        now)));
      }
    } finally {
      writers.shutdown();
    }
    int count = 0;
    long samples = 0;
    IOException failure = null;
    for (Future<BlockMeta> f : written) {
      try {
        BlockMeta meta = f.get();
        if (meta != null) {
          blocks.add(Block.open(blocks.dir().resolve(meta.ulid())));
          count++;
          samples += meta.numSamples();
        }
      } catch (ExecutionException e) {
        // The other windows' blocks are written and kept; the first failure is reported.
        if (failure == null) {
          failure = e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while writing imported blocks");
      }
    }
    if (failure != null) {
      throw failure;
    }
    for (ImportedSeries s : buffered) {
      s.clear();
      s.listed = false;
    }
    buffered.clear();
    slabs.clear();
    log.info(
        "import wrote {} blocks, {} samples, {} buffered bytes in {} ms",
        count,
        samples,
        bufferedBytes,
        (System.nanoTime() - began) / 1_000_000);
    bufferedBytes = 0;
    blocksWritten += count;
    // The emptied buffer lived long enough to reach the old generation, and a collector left to
    // itself grows that generation for the next buffer instead of collecting this one: without
    // this call a 1 GB import bounded at 8MB peaked at 310 MiB RSS, with it at 135 MiB
    // (bench/README.md). One full collection per flush costs little beside writing the blocks.
    if (collect) {
      System.gc();
    }
  }

  /** The buffered series with samples in the window starting at {@code start}, in label order. */
  private final class WindowSeries implements SeriesSet {
    private final long start;
    private int index = -1;

    WindowSeries(long start) {
      this.start = start;
    }

    @Override
    public boolean next() {
      while (++index < buffered.size()) {
        if (buffered.get(index).hasWindow(start)) {
          return true;
        }
      }
      return false;
    }

    @Override
    public Series at() {
      ImportedSeries s = buffered.get(index);
      return new EncodedChunkedSeries() {
        @Override
        public Labels labels() {
          return s.labels;
        }

        @Override
        public SampleIterator iterator(SampleIterator reuse) {
          return s.window(start, reuse);
        }

        @Override
        public List<EncodedChunk> encodedChunks(long mint, long maxt) {
          return s.windowChunks(start);
        }
      };
    }
  }
}
