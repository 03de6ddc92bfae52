package io.flightdeck.promqltest;

import io.flightdeck.model.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One line {@code metric{labels} values...} after expansion: one slot per step, empty where the
 * line has {@code _}.
 */
public record SeriesDescription(int line, Labels labels, List<Optional<SampleValue>> slots) {

  public SeriesDescription {
    slots = List.copyOf(slots);
  }

  /** The filled slots as samples, slot {@code n} at {@code startMs + n * stepMs}. */
  public List<Sample> samples(long startMs, long stepMs) {
    List<Sample> samples = new ArrayList<>();
    for (int n = 0; n < slots.size(); n++) {
      long timestamp = startMs + n * stepMs;
      slots.get(n).ifPresent(value -> samples.add(new Sample(timestamp, value)));
    }
    return samples;
  }

  public boolean hasHistograms() {
    return slots.stream()
        .flatMap(Optional::stream)
        .anyMatch(SampleValue.Histogram.class::isInstance);
  }
}
