package io.flightdeck.dashboards;

import java.util.List;

/**
 * What an import kept: the counts of panels, queries, variables, annotations and links in the
 * source and in the model (Grafana's data-loss check), every source field the model does not
 * support, by JSON path, and warnings (a panel moved to resolve an overlap, a newer schema...).
 */
public record ImportReport(
    SourceFormat format,
    List<Count> counts,
    List<UnsupportedField> unsupported,
    List<String> warnings) {

  public ImportReport {
    counts = List.copyOf(counts);
    unsupported = List.copyOf(unsupported);
    warnings = List.copyOf(warnings);
  }

  /** One kind of thing counted in the source and in the model. */
  public record Count(String what, int source, int kept) {
    public boolean lost() {
      return kept < source;
    }
  }

  /** A field of the source the model cannot hold, and why. */
  public record UnsupportedField(String path, String reason) {}

  public Count count(String what) {
    return counts.stream()
        .filter(c -> c.what().equals(what))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no count named " + what));
  }
}
