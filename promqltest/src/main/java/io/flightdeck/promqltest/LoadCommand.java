package io.flightdeck.promqltest;

import io.flightdeck.model.Labels;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code load <step>} or {@code load_with_nhcb <step>}: add the series to the storage, the n-th
 * slot of each at {@code n * stepMs}. Each label set appears once (a later line replaced an earlier
 * one). {@code withNhcb} also asks for classic histograms to be converted to native ones.
 *
 * @param startTimestamped the series an {@code @st} line gave start timestamps; the timestamps
 *     themselves are not kept, since storage has no place for them
 */
public record LoadCommand(
    int line,
    long stepMs,
    boolean withNhcb,
    List<SeriesDescription> series,
    List<Labels> startTimestamped)
    implements Command {

  public LoadCommand {
    series = List.copyOf(series);
    startTimestamped = List.copyOf(startTimestamped);
  }

  /** The samples to append, by series, in the order the series were written. */
  public Map<Labels, List<Sample>> samplesByLabels() {
    Map<Labels, List<Sample>> samples = new LinkedHashMap<>();
    for (SeriesDescription s : series) {
      samples.put(s.labels(), s.samples(0, stepMs));
    }
    return samples;
  }

  /** True if loading this block needs native histogram support, which we do not have yet. */
  public boolean needsNativeHistograms() {
    return withNhcb || series.stream().anyMatch(SeriesDescription::hasHistograms);
  }
}
