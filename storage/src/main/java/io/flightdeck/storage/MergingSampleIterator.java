package io.flightdeck.storage;

import java.util.Arrays;
import java.util.List;

/**
 * Merges time-ordered iterators into one; when several hold the same timestamp, the sample of the
 * earliest iterator in the list wins and the others are skipped.
 */
public final class MergingSampleIterator implements SampleIterator {
  private final SampleIterator[] iterators;

  /** Whether iterators[i] is positioned on a valid sample. */
  private final boolean[] valid;

  private boolean started;
  private int current = -1;

  public MergingSampleIterator(List<SampleIterator> iterators) {
    this.iterators = iterators.toArray(new SampleIterator[0]);
    this.valid = new boolean[this.iterators.length];
  }

  /** How many iterators this one merges. */
  public int sourceCount() {
    return iterators.length;
  }

  /** The {@code index}-th merged iterator, for a series that reuses it (see {@link Series}). */
  public SampleIterator source(int index) {
    return iterators[index];
  }

  /**
   * Starts over on new iterators, as many as before: a reader that goes from series to series
   * reuses one merger, and through it the iterators it merged, with their decoding buffers.
   */
  public MergingSampleIterator reset(List<SampleIterator> sources) {
    if (sources.size() != iterators.length) {
      throw new IllegalArgumentException(
          "merging " + sources.size() + " iterators in place of " + iterators.length);
    }
    for (int i = 0; i < iterators.length; i++) {
      iterators[i] = sources.get(i);
    }
    Arrays.fill(valid, false);
    started = false;
    current = -1;
    return this;
  }

  @Override
  public boolean next() {
    if (!started) {
      started = true;
      for (int i = 0; i < iterators.length; i++) {
        valid[i] = iterators[i].next();
      }
    } else if (current >= 0) {
      long t = iterators[current].timestamp();
      for (int i = 0; i < iterators.length; i++) {
        if (valid[i] && iterators[i].timestamp() == t) {
          valid[i] = iterators[i].next();
        }
      }
    }
    return pickSmallest();
  }

  @Override
  public boolean seek(long t) {
    if (started && current >= 0 && iterators[current].timestamp() >= t) {
      return true;
    }
    started = true;
    for (int i = 0; i < iterators.length; i++) {
      valid[i] = iterators[i].seek(t);
    }
    return pickSmallest();
  }

  private boolean pickSmallest() {
    current = -1;
    long best = Long.MAX_VALUE;
    for (int i = 0; i < iterators.length; i++) {
      if (valid[i] && (current < 0 || iterators[i].timestamp() < best)) {
        best = iterators[i].timestamp();
        current = i;
      }
    }
    return current >= 0;
  }

  /**
   * Iterator after iterator when they follow one another in time, as a block's samples and then the
   * head's do: each copies its samples in one call instead of a few interface calls per sample
   * through this one. An iterator that overlaps what is already copied is merged into it.
   */
  @Override
  public boolean drainTo(SampleBuffer out, long maxt) {
    int base = out.size();
    // Which iterator each copied sample came from, for ties: only built once two overlap.
    int[] sources = null;
    int[] segmentStarts = new int[iterators.length];
    int[] segmentSources = new int[iterators.length];
    int segments = 0;
    boolean stopped = false;
    while (current >= 0) {
      int part = current;
      SampleIterator it = iterators[part];
      valid[part] = false;
      int copied = out.size() - base;
      boolean follows = copied == 0 || it.timestamp() > out.timestamps()[out.size() - 1];
      if (follows && sources == null) {
        segmentStarts[segments] = copied;
        segmentSources[segments] = part;
        segments++;
        stopped |= it.drainTo(out, maxt);
      } else {
        if (sources == null) {
          sources = sourcesOf(segmentStarts, segmentSources, segments, copied);
        }
        SampleBuffer added = new SampleBuffer(64);
        stopped |= it.drainTo(added, maxt);
        sources = mergeInto(out, base, sources, added, part);
      }
      pickSmallest();
    }
    return stopped;
  }

  /** Per copied sample, its iterator, from the segments copied one after another. */
  private static int[] sourcesOf(int[] starts, int[] parts, int segments, int copied) {
    int[] sources = new int[copied];
    for (int s = 0; s < segments; s++) {
      int end = s + 1 < segments ? starts[s + 1] : copied;
      Arrays.fill(sources, starts[s], end, parts[s]);
    }
    return sources;
  }

  /**
   * Merges {@code added} (all from iterator {@code part}) into the samples copied to {@code out}
   * from {@code base} on; at a shared timestamp the earlier iterator in the list wins. Returns the
   * merged samples' sources.
   */
  private static int[] mergeInto(
      SampleBuffer out, int base, int[] sources, SampleBuffer added, int part) {
    int copied = out.size() - base;
    long[] oldT = Arrays.copyOfRange(out.timestamps(), base, out.size());
    double[] oldV = Arrays.copyOfRange(out.values(), base, out.size());
    long[] newT = added.timestamps();
    double[] newV = added.values();
    int[] merged = new int[copied + added.size()];
    out.truncate(base);
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < copied || j < added.size()) {
      boolean takeOld;
      if (j == added.size()) {
        takeOld = true;
      } else if (i == copied) {
        takeOld = false;
      } else if (oldT[i] == newT[j]) {
        takeOld = sources[i] < part;
        if (takeOld) {
          j++;
        } else {
          i++;
        }
      } else {
        takeOld = oldT[i] < newT[j];
      }
      if (takeOld) {
        out.add(oldT[i], oldV[i]);
        merged[n++] = sources[i++];
      } else {
        out.add(newT[j], newV[j]);
        merged[n++] = part;
        j++;
      }
    }
    return Arrays.copyOf(merged, n);
  }

  @Override
  public long timestamp() {
    return iterators[current].timestamp();
  }

  @Override
  public double value() {
    return iterators[current].value();
  }
}
