package io.flightdeck.app;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.SeriesSet;
import io.flightdeck.tsdb.Tsdb;
import io.flightdeck.tsdb.TsdbOptions;
import io.flightdeck.tsdb.block.BlockMeta;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code flightdeck tsdb analyze}: blocks, sizes and bytes per sample, and where the cardinality
 * comes from, like {@code promtool tsdb analyze}.
 */
@Command(
    name = "analyze",
    mixinStandardHelpOptions = true,
    description =
        "Report blocks, bytes per sample and the metrics and labels with the most series.")
final class TsdbAnalyzeCommand implements Callable<Integer> {
  @Parameters(index = "0", description = "Data directory.")
  Path dir;

  @Option(
      names = "--limit",
      defaultValue = "20",
      description = "Rows per table (default ${DEFAULT-VALUE}).")
  int limit;

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    try (Tsdb tsdb = Tsdb.openReadOnly(TsdbOptions.defaults(dir))) {
      long blockSamples = 0;
      long blockBytes = 0;
      out.println("Blocks:");
      out.printf(
          "  %-26s %-13s %10s %12s %10s %12s %10s%n",
          "ID", "DURATION", "SERIES", "SAMPLES", "CHUNKS", "BYTES", "B/SAMPLE");
      for (BlockMeta meta : tsdb.blockMetas()) {
        long bytes = sizeOf(dir.resolve(meta.ulid()));
        blockSamples += meta.numSamples();
        blockBytes += bytes;
        out.printf(
            "  %-26s %-13s %10d %12d %10d %12d %10.3f%n",
            meta.ulid(),
            Duration.ofMillis(meta.maxTime() - meta.minTime()),
            meta.numSeries(),
            meta.numSamples(),
            meta.numChunks(),
            bytes,
            meta.numSamples() == 0 ? 0.0 : (double) bytes / meta.numSamples());
      }
      out.printf(
          "  total: %d samples in %d bytes (%.3f bytes per sample)%n%n",
          blockSamples, blockBytes, blockSamples == 0 ? 0.0 : (double) blockBytes / blockSamples);
      out.printf("Head: %d series; WAL %d bytes%n%n", tsdb.head().numSeries(), tsdb.walSizeBytes());

      Map<String, Integer> seriesPerMetric = new HashMap<>();
      Map<String, Set<String>> valuesPerLabel = new HashMap<>();
      Map<String, Integer> pairCounts = new HashMap<>();
      Map<String, Long> valueLengthPerLabel = new HashMap<>();
      long series = 0;
      long samples = 0;
      try (Querier querier = tsdb.querier(Long.MIN_VALUE, Long.MAX_VALUE)) {
        SeriesSet set = querier.select(false, Matcher.regex(Labels.METRIC_NAME, ".+"));
        SampleIterator reuse = null;
        while (set.next()) {
          Labels labels = set.at().labels();
          series++;
          seriesPerMetric.merge(labels.metricName(), 1, Integer::sum);
          for (int i = 0; i < labels.size(); i++) {
            String name = labels.name(i);
            if (valuesPerLabel.computeIfAbsent(name, n -> new HashSet<>()).add(labels.value(i))) {
              valueLengthPerLabel.merge(name, (long) labels.value(i).length(), Long::sum);
            }
            pairCounts.merge(name + "=" + labels.value(i), 1, Integer::sum);
          }
          SampleIterator it = set.at().iterator(reuse);
          reuse = it;
          while (it.next()) {
            samples++;
          }
        }
      }
      out.printf(
          "Series: %d%nSamples: %d%nLabel names: %d%nLabel pairs: %d%n%n",
          series, samples, valuesPerLabel.size(), pairCounts.size());
      table(out, "Highest cardinality metric names (series)", seriesPerMetric);
      Map<String, Integer> cardinality = new HashMap<>();
      valuesPerLabel.forEach((name, values) -> cardinality.put(name, values.size()));
      table(out, "Highest cardinality labels (distinct values)", cardinality);
      table(out, "Most common label pairs (series)", pairCounts);
      Map<String, Long> lengths = valueLengthPerLabel;
      table(out, "Label names with highest cumulative label value length", lengths);
    }
    return 0;
  }

  private <N extends Number & Comparable<N>> void table(
      PrintStream out, String title, Map<String, N> counts) {
    out.println(title + ":");
    List<Map.Entry<String, N>> rows =
        counts.entrySet().stream()
            .sorted(
                Map.Entry.<String, N>comparingByValue()
                    .reversed()
                    .thenComparing(Map.Entry.comparingByKey()))
            .limit(limit)
            .toList();
    for (Map.Entry<String, N> row : rows) {
      out.printf("  %10s %s%n", row.getValue(), row.getKey());
    }
    out.println();
  }

  private static long sizeOf(Path path) throws java.io.IOException {
    try (var walk = java.nio.file.Files.walk(path)) {
      return walk.filter(java.nio.file.Files::isRegularFile)
          .mapToLong(p -> p.toFile().length())
          .sum();
    }
  }
}
