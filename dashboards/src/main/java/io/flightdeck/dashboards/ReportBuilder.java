package io.flightdeck.dashboards;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Collects an import's counts, unsupported fields and warnings while the importer walks. */
final class ReportBuilder {
  static final String PANELS = "panels";
  static final String QUERIES = "queries";
  static final String VARIABLES = "variables";
  static final String ANNOTATIONS = "annotations";
  static final String LINKS = "links";

  private final Map<String, Integer> sourceCounts = new LinkedHashMap<>();
  private final List<ImportReport.UnsupportedField> unsupported = new ArrayList<>();
  private final List<String> warnings = new ArrayList<>();

  ReportBuilder() {
    for (String what : List.of(PANELS, QUERIES, VARIABLES, ANNOTATIONS, LINKS)) {
      sourceCounts.put(what, 0);
    }
  }

  void countSource(String what, int n) {
    sourceCounts.merge(what, n, Integer::sum);
  }

  void unsupported(String path, String reason) {
    unsupported.add(new ImportReport.UnsupportedField(path, reason));
  }

  void warn(String warning) {
    warnings.add(warning);
  }

  ImportReport build(SourceFormat format, Dashboard kept) {
    Map<String, Integer> keptCounts =
        Map.of(
            PANELS, kept.panels().size(),
            QUERIES, kept.queryCount(),
            VARIABLES, kept.variables().size(),
            ANNOTATIONS, kept.annotations().size(),
            LINKS, kept.links().size());
    List<ImportReport.Count> counts = new ArrayList<>();
    sourceCounts.forEach(
        (what, source) -> counts.add(new ImportReport.Count(what, source, keptCounts.get(what))));
    return new ImportReport(format, counts, unsupported, warnings);
  }
}
