package io.flightdeck.tsdb.head;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.ReadCancellation;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.Series;
import io.flightdeck.storage.SeriesSet;
import java.util.ArrayList;
import java.util.List;

/** Reads the head as of one commit number. Series are copied out when selected. */
final class HeadQuerier implements Querier {
  private final Head head;
  private final long mint;
  private final long maxt;
  private final long seq;
  private boolean closed;

  HeadQuerier(Head head, long mint, long maxt, long seq) {
    this.head = head;
    this.mint = mint;
    this.maxt = maxt;
    this.seq = seq;
  }

  @Override
  public SeriesSet select(boolean sorted, Matcher... matchers) {
    List<HeadSeries> matching = head.select(sorted, matchers);
    List<Series> result = new ArrayList<>(matching.size());
    int turn = 0;
    for (HeadSeries series : matching) {
      ReadCancellation.checkpoint(++turn);
      SeriesView view = series.view(mint, maxt, seq);
      // A series whose samples in range were all deleted is not selected, as in Prometheus.
      if (view != null
          && (view.deletedRanges().isEmpty()
              || new SeriesViewIterator().reset(view, mint, maxt).next())) {
        result.add(new ViewSeries(view, mint, maxt));
      }
    }
    return new ListSeriesSet(result);
  }

  /** As in Prometheus, the head answers label questions only when its time range is asked. */
  private boolean overlapsHead() {
    return mint <= head.maxTime() && maxt >= head.minTime();
  }

  @Override
  public List<String> labelNames(Matcher... matchers) {
    return overlapsHead() ? head.labelNames(head.selectIds(matchers)) : List.of();
  }

  @Override
  public List<String> labelValues(String name, Matcher... matchers) {
    return overlapsHead() ? head.labelValues(name, head.selectIds(matchers)) : List.of();
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      head.isolation.closeReader(seq);
    }
  }

  private record ViewSeries(SeriesView view, long mint, long maxt) implements Series {
    @Override
    public Labels labels() {
      return view.labels();
    }

    @Override
    public SampleIterator iterator(SampleIterator reuse) {
      SeriesViewIterator it =
          reuse instanceof SeriesViewIterator previous ? previous : new SeriesViewIterator();
      return it.reset(view, mint, maxt);
    }
  }

  /** A series set over a list. */
  static final class ListSeriesSet implements SeriesSet {
    private final List<Series> series;
    private int index = -1;

    ListSeriesSet(List<Series> series) {
      this.series = series;
    }

    @Override
    public boolean next() {
      return ++index < series.size();
    }

    @Override
    public Series at() {
      return series.get(index);
    }
  }
}
