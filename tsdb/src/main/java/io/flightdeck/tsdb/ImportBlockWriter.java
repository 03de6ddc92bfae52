package io.flightdeck.tsdb;

import io.flightdeck.model.Labels;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.Series;
import io.flightdeck.storage.SeriesSet;
import io.flightdeck.tsdb.block.Block;
import io.flightdeck.tsdb.block.BlockMeta;
import io.flightdeck.tsdb.block.BlockWriter;
import io.flightdeck.tsdb.block.EncodedChunk;
import io.flightdeck.tsdb.block.EncodedChunkedSeries;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Writes buffered import series as one block per block-range window, the windows in parallel, and
 * adds the blocks to the database: they are durable and queryable when {@link #write} returns.
 */
final class ImportBlockWriter {
  private final BlockSet blocks;
  private final TsdbOptions options;

  ImportBlockWriter(BlockSet blocks, TsdbOptions options) {
    this.blocks = blocks;
    this.options = options;
  }

  /** What one {@link #write} wrote. */
  record Written(int blocks, long samples) {}

  /**
   * @param series sealed series, no two with the same labels; sorted here
   */
  Written write(List<ImportedSeries> series) throws IOException {
    series.sort(Comparator.comparing(s -> s.labels));
    TreeSet<Long> windows = new TreeSet<>();
    for (ImportedSeries s : series) {
      s.addWindows(windows);
    }
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
    long window = options.blockRange().toMillis();
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
                        new WindowSeries(series, start),
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
    return new Written(count, samples);
  }

  /** The series with samples in the window starting at {@code start}, in label order. */
  private static final class WindowSeries implements SeriesSet {
    private final List<ImportedSeries> series;
    private final long start;
    private int index = -1;

    WindowSeries(List<ImportedSeries> series, long start) {
      this.series = series;
      this.start = start;
    }

    @Override
    public boolean next() {
      while (++index < series.size()) {
        if (series.get(index).hasWindow(start)) {
          return true;
        }
      }
      return false;
    }

    @Override
    public Series at() {
      ImportedSeries s = series.get(index);
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
