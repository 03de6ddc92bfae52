package io.flightdeck.tsdb.head;

import io.flightdeck.model.Labels;
import java.util.List;

/** A reader's private, immutable copy of one series' visible samples (see HeadSeries#view). */
record SeriesView(
    Labels labels,
    List<HeadChunk> chunks,
    long[] outOfOrderTimes,
    double[] outOfOrderValues,
    List<long[]> deletedRanges) {}
