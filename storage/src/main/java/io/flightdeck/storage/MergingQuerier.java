package io.flightdeck.storage;

import io.flightdeck.model.Matcher;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Merges several queriers (the head and the blocks of a TSDB, say) into one view: series with equal
 * labels are joined and their samples merged by timestamp, a timestamp present in several sources
 * taken once (from the earliest source in the list).
 */
public final class MergingQuerier implements Querier {
  private final List<Querier> queriers;

  public MergingQuerier(List<Querier> queriers) {
    this.queriers = List.copyOf(queriers);
  }

  @Override
  public SeriesSet select(boolean sorted, Matcher... matchers) {
    if (queriers.size() == 1) {
      return queriers.get(0).select(sorted, matchers);
    }
    List<SeriesSet> sets = new ArrayList<>(queriers.size());
    for (Querier querier : queriers) {
      sets.add(querier.select(true, matchers));
    }
    return new MergingSeriesSet(sets);
  }

  @Override
  public List<String> labelNames(Matcher... matchers) {
    TreeSet<String> names = new TreeSet<>();
    for (Querier querier : queriers) {
      names.addAll(querier.labelNames(matchers));
    }
    return new ArrayList<>(names);
  }

  @Override
  public List<String> labelValues(String name, Matcher... matchers) {
    TreeSet<String> values = new TreeSet<>();
    for (Querier querier : queriers) {
      values.addAll(querier.labelValues(name, matchers));
    }
    return new ArrayList<>(values);
  }

  @Override
  public void close() {
    RuntimeException failure = null;
    for (Querier querier : queriers) {
      try {
        querier.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
