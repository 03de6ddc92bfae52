package io.flightdeck.tsdb.block;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.ReadCancellation;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.Series;
import io.flightdeck.storage.SeriesSet;
import io.flightdeck.tsdb.index.PostingsSelector;
import java.util.ArrayList;
import java.util.List;
import org.roaringbitmap.PeekableIntIterator;
import org.roaringbitmap.RoaringBitmap;

/** Reads one block over [mint, maxt]; series come in label order (the index's order). */
final class BlockQuerier implements Querier {
  private final Block block;
  private final long mint;
  private final long maxt;
  private boolean closed;

  BlockQuerier(Block block, long mint, long maxt) {
    this.block = block;
    this.mint = mint;
    this.maxt = maxt;
  }

  @Override
  public SeriesSet select(boolean sorted, Matcher... matchers) {
    RoaringBitmap ids = PostingsSelector.select(block.index(), matchers);
    PeekableIntIterator it = ids.getIntIterator();
    Tombstones tombstones = block.tombstones();
    return new SeriesSet() {
      private Series current;

      @Override
      public boolean next() {
        while (it.hasNext()) {
          int id = it.next();
          List<ChunkMeta> all = new ArrayList<>();
          Labels labels = block.index().series(id, all);
          List<ChunkMeta> inRange = new ArrayList<>(all.size());
          for (ChunkMeta meta : all) {
            if (meta.maxTime() >= mint && meta.minTime() <= maxt) {
              inRange.add(meta);
            }
          }
          if (!inRange.isEmpty()) {
            current = new BlockSeries(labels, inRange, tombstones.of(id));
            // A series whose samples in range were all deleted is not selected.
            if (tombstones.of(id).isEmpty() || current.iterator(null).next()) {
              return true;
            }
          }
        }
        return false;
      }

      @Override
      public Series at() {
        return current;
      }
    };
  }

  @Override
  public List<String> labelNames(Matcher... matchers) {
    if (matchers.length == 0) {
      return block.index().labelNames();
    }
    RoaringBitmap ids = PostingsSelector.select(block.index(), matchers);
    List<String> names = new ArrayList<>();
    int turn = 0;
    for (String name : block.index().labelNames()) {
      for (RoaringBitmap postings : block.index().valuesOf(name).values()) {
        ReadCancellation.checkpoint(++turn);
        if (RoaringBitmap.intersects(postings, ids)) {
          names.add(name);
          break;
        }
      }
    }
    return names;
  }

  @Override
  public List<String> labelValues(String name, Matcher... matchers) {
    RoaringBitmap ids =
        matchers.length == 0 ? null : PostingsSelector.select(block.index(), matchers);
    List<String> values = new ArrayList<>();
    int turn = 0;
    for (var entry : block.index().valuesOf(name).entrySet()) {
      ReadCancellation.checkpoint(++turn);
      if (ids == null || RoaringBitmap.intersects(entry.getValue(), ids)) {
        values.add(entry.getKey());
      }
    }
    return values;
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      block.release();
    }
  }

  private final class BlockSeries implements Series {
    private final Labels labels;
    private final List<ChunkMeta> chunks;
    private final List<long[]> deleted;

    BlockSeries(Labels labels, List<ChunkMeta> chunks, List<long[]> deleted) {
      this.labels = labels;
      this.chunks = chunks;
      this.deleted = deleted;
    }

    @Override
    public Labels labels() {
      return labels;
    }

    @Override
    public SampleIterator iterator(SampleIterator reuse) {
      BlockSeriesIterator it =
          reuse instanceof BlockSeriesIterator previous ? previous : new BlockSeriesIterator();
      return it.reset(block.chunks(), chunks, deleted, mint, maxt);
    }
  }
}
