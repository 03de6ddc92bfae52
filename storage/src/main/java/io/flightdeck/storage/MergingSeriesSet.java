package io.flightdeck.storage;

import io.flightdeck.model.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/** Merges series sets that are each sorted by labels into one sorted set, joining equal labels. */
final class MergingSeriesSet implements SeriesSet {
  private record Head(SeriesSet set, int order) {}

  private final PriorityQueue<Head> heads =
      new PriorityQueue<>(
          (a, b) -> {
            int cmp = a.set.at().labels().compareTo(b.set.at().labels());
            return cmp != 0 ? cmp : Integer.compare(a.order, b.order);
          });
  private final List<String> warnings = new ArrayList<>();
  private final List<SeriesSet> sets;
  private Series current;

  MergingSeriesSet(List<SeriesSet> sets) {
    this.sets = sets;
    for (int i = 0; i < sets.size(); i++) {
      if (sets.get(i).next()) {
        heads.add(new Head(sets.get(i), i));
      }
    }
  }

  @Override
  public boolean next() {
    if (heads.isEmpty()) {
      collectWarnings();
      return false;
    }
    Head first = heads.poll();
    Labels labels = first.set.at().labels();
    List<Series> same = new ArrayList<>(2);
    same.add(first.set.at());
    advance(first);
    while (!heads.isEmpty() && heads.peek().set.at().labels().equals(labels)) {
      Head next = heads.poll();
      same.add(next.set.at());
      advance(next);
    }
    current = same.size() == 1 ? same.get(0) : new MergedSeries(labels, same);
    return true;
  }

  private void advance(Head head) {
    if (head.set.next()) {
      heads.add(head);
    }
  }

  private void collectWarnings() {
    if (warnings.isEmpty()) {
      for (SeriesSet set : sets) {
        warnings.addAll(set.warnings());
      }
    }
  }

  @Override
  public Series at() {
    return current;
  }

  @Override
  public List<String> warnings() {
    collectWarnings();
    return warnings;
  }

  private record MergedSeries(Labels labels, List<Series> parts) implements Series {
    @Override
    public SampleIterator iterator(SampleIterator reuse) {
      MergingSampleIterator previous =
          reuse instanceof MergingSampleIterator merging && merging.sourceCount() == parts.size()
              ? merging
              : null;
      List<SampleIterator> iterators = new ArrayList<>(parts.size());
      for (int i = 0; i < parts.size(); i++) {
        iterators.add(parts.get(i).iterator(previous == null ? null : previous.source(i)));
      }
      return previous == null ? new MergingSampleIterator(iterators) : previous.reset(iterators);
    }
  }
}
