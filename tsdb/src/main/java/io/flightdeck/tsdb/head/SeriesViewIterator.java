package io.flightdeck.tsdb.head;

import io.flightdeck.storage.SampleIterator;
import io.flightdeck.tsdb.chunk.ChunkDecoder;
import java.util.List;

/**
 * Iterates a {@link SeriesView} within [mint, maxt]: the in-order chunks merged with the
 * out-of-order samples, deleted ranges skipped.
 */
final class SeriesViewIterator implements SampleIterator {
  private final SeriesView view;
  private final long mint;
  private final long maxt;
  private final ChunkDecoder decoder = new ChunkDecoder();
  private SampleIterator chunkIterator;
  private int chunkIndex = -1;
  private boolean chunkValid;
  private int oooIndex;
  private boolean started;
  private boolean done;
  private long t;
  private double v;

  SeriesViewIterator(SeriesView view, long mint, long maxt) {
    this.view = view;
    this.mint = mint;
    this.maxt = maxt;
  }

  @Override
  public boolean next() {
    if (done) {
      return false;
    }
    if (!started) {
      started = true;
      advanceChunk();
    }
    while (true) {
      if (!pickNext()) {
        done = true;
        return false;
      }
      if (t > maxt) {
        done = true;
        return false;
      }
      if (t >= mint && !isDeleted(t)) {
        return true;
      }
    }
  }

  /** Takes the smaller of the current chunk sample and the next out-of-order sample. */
  private boolean pickNext() {
    boolean haveOoo = oooIndex < view.outOfOrderTimes().length;
    if (!chunkValid && !haveOoo) {
      return false;
    }
    if (chunkValid && (!haveOoo || chunkIterator.timestamp() <= view.outOfOrderTimes()[oooIndex])) {
      t = chunkIterator.timestamp();
      v = chunkIterator.value();
      if (haveOoo && view.outOfOrderTimes()[oooIndex] == t) {
        oooIndex++; // the in-order sample wins a tie
      }
      advanceChunk();
    } else {
      t = view.outOfOrderTimes()[oooIndex];
      v = view.outOfOrderValues()[oooIndex];
      oooIndex++;
    }
    return true;
  }

  private void advanceChunk() {
    if (chunkIndex >= 0 && chunkIterator.next()) {
      chunkValid = true;
      return;
    }
    List<HeadChunk> chunks = view.chunks();
    while (++chunkIndex < chunks.size()) {
      HeadChunk chunk = chunks.get(chunkIndex);
      chunkIterator =
          decoder.decode(chunk.encoding(), chunk.data(), chunk.encodedCount(), chunk.count());
      if (chunkIterator.next()) {
        chunkValid = true;
        return;
      }
    }
    chunkValid = false;
  }

  private boolean isDeleted(long time) {
    for (long[] range : view.deletedRanges()) {
      if (time >= range[0] && time <= range[1]) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean seek(long target) {
    if (done) {
      return false;
    }
    if (started && t >= target) {
      return true;
    }
    while (next()) {
      if (t >= target) {
        return true;
      }
    }
    return false;
  }

  @Override
  public long timestamp() {
    return t;
  }

  @Override
  public double value() {
    return v;
  }
}
