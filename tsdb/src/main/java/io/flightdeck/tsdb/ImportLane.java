package io.flightdeck.tsdb;

import io.flightdeck.model.Labels;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.InvalidLabelsException;
import io.flightdeck.storage.StorageException;
import io.flightdeck.tsdb.block.ChunkSlabs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The part of a {@link BlockImport} that one thread appends to: its series and their buffered
 * chunks, written to blocks whenever the lane's buffer passes its share of the import's bound, and
 * at the import's end. A lane's series are its own; lanes never wait for each other. One appender
 * at a time, on the lane's thread.
 */
final class ImportLane {
  /** Commits without a sample after which a series' open chunk is encoded (see {@link #commit}). */
  static final int IDLE_COMMITS = 2;

  private final BlockImport owner;
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

  /** Read by other threads through {@link BlockImport#bufferedBytes}. */
  private volatile long bufferedBytes;

  private long commits;
  private long batches;
  private volatile boolean appenderOpen;

  /**
   * @param slabBytes the size of the slabs that hold the lane's encoded chunks
   */
  ImportLane(BlockImport owner, TsdbOptions options, int slabBytes) {
    this.owner = owner;
    this.options = options;
    this.window = options.blockRange().toMillis();
    this.slabs = new ChunkSlabs(slabBytes);
  }

  /**
   * A batch that is buffered on commit (written to a block once the lane's buffer is full, or by
   * {@link BlockImport#finish()}).
   *
   * @throws IllegalStateException while the lane's other appender is open
   */
  Appender appender() {
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
      owner.claim(labels, this);
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
        owner.write(List.of(this));
      } catch (IOException e) {
        throw new UncheckedIOException("writing imported samples to blocks failed", e);
      }
      BlockImport.collectFlushedBuffer();
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
   * Seals the open chunks and gives the buffered series, for {@link BlockImport} to write; {@link
   * #emptyBuffer} once they are written.
   */
  List<ImportedSeries> sealBuffer() {
    for (ImportedSeries s : withOpenChunk) {
      s.seal();
      s.open = false;
    }
    withOpenChunk.clear();
    return buffered;
  }

  /** Forgets the buffered samples, written to blocks. */
  void emptyBuffer() {
    for (ImportedSeries s : buffered) {
      s.clear();
      s.listed = false;
    }
    buffered.clear();
    slabs.clear();
    bufferedBytes = 0;
  }
}
