package io.flightdeck.tsdb.head;

import io.flightdeck.storage.SampleBuffer;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.tsdb.chunk.ChunkDecoder;
import java.util.List;

/**
 * Iterates a {@link SeriesView} within [mint, maxt]: the in-order chunks merged with the
 * out-of-order samples, deleted ranges skipped. Reusable through {@link #reset}, with its decoding
 * buffers.
 */
final class SeriesViewIterator implements SampleIterator {
  private final ChunkDecoder decoder = new ChunkDecoder();
  private SeriesView view;
  private long mint;
  private long maxt;
  private long[] oooTimes;
  private double[] oooValues;
  private boolean hasDeletes;
  private SampleIterator chunkIterator;
  private int chunkIndex;
  private boolean chunkValid;
  private int oooIndex;
  private boolean started;
  private boolean done;
  private long t;
  private double v;

  /** Starts over on another view. */
  SeriesViewIterator reset(SeriesView view, long mint, long maxt) {
    this.view = view;
    this.mint = mint;
    this.maxt = maxt;
    this.oooTimes = view.outOfOrderTimes();
    this.oooValues = view.outOfOrderValues();
    this.hasDeletes = !view.deletedRanges().isEmpty();
    chunkIterator = null;
    chunkIndex = -1;
    chunkValid = false;
    oooIndex = 0;
    started = false;
    done = false;
    t = 0;
    v = 0;
    return this;
  }

  @Override
  public boolean next() {
    if (done) {
      return false;
    }
    if (!started) {
      started = true;
      openChunk(0);
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
      if (t >= mint && !(hasDeletes && isDeleted(t))) {
        return true;
      }
    }
  }

  /** Takes the smaller of the current chunk sample and the next out-of-order sample. */
  private boolean pickNext() {
    boolean haveOoo = oooIndex < oooTimes.length;
    if (!chunkValid && !haveOoo) {
      return false;
    }
    if (chunkValid && (!haveOoo || chunkIterator.timestamp() <= oooTimes[oooIndex])) {
      t = chunkIterator.timestamp();
      v = chunkIterator.value();
      if (haveOoo && oooTimes[oooIndex] == t) {
        oooIndex++; // the in-order sample wins a tie
      }
      if (chunkIterator.next()) {
        chunkValid = true;
      } else {
        openChunk(chunkIndex + 1);
      }
    } else {
      t = oooTimes[oooIndex];
      v = oooValues[oooIndex];
      oooIndex++;
    }
    return true;
  }

  /** Positions on the first sample of the first non-empty chunk from {@code index} on. */
  private void openChunk(int index) {
    List<HeadChunk> chunks = view.chunks();
    for (chunkIndex = index; chunkIndex < chunks.size(); chunkIndex++) {
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
    skipBefore(target);
    while (next()) {
      if (t >= target) {
        return true;
      }
    }
    return false;
  }

  /**
   * Skips, without decoding them, the chunks that end before {@code target} and the out-of-order
   * samples before it: a seek into a long head costs a search, not a walk over every sample.
   */
  private void skipBefore(long target) {
    List<HeadChunk> chunks = view.chunks();
    int current = started ? chunkIndex : 0;
    int first = current;
    while (first < chunks.size() && chunks.get(first).maxTime() < target) {
      first++;
    }
    if (!started || first > current) {
      started = true;
      openChunk(first);
    }
    while (oooIndex < oooTimes.length && oooTimes[oooIndex] < target) {
      oooIndex++;
    }
  }

  /** Chunk by chunk while no out-of-order sample or deletion has to be merged in. */
  @Override
  public boolean drainTo(SampleBuffer out, long maxt) {
    if (hasDeletes || oooIndex < oooTimes.length) {
      return SampleIterator.super.drainTo(out, maxt);
    }
    long limit = Math.min(maxt, this.maxt);
    done = true;
    if (t > limit) {
      return true;
    }
    out.add(t, v);
    for (; chunkValid; openChunk(chunkIndex + 1)) {
      if (chunkIterator.drainTo(out, limit)) {
        // Stopped at a sample: one this iterator would have shown only if within its own range.
        return chunkIterator.timestamp() <= this.maxt;
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
