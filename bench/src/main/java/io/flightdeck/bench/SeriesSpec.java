package io.flightdeck.bench;

import java.util.SortedMap;

/** One series of the workload: its labels, sorted by name as remote write requires, and values. */
record SeriesSpec(SortedMap<String, String> labels, ValueModel values) {}
