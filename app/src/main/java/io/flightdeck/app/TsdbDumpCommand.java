package io.flightdeck.app;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.SeriesSet;
import io.flightdeck.tsdb.Tsdb;
import io.flightdeck.tsdb.TsdbOptions;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code flightdeck tsdb dump}: prints samples as {@code {labels} value timestamp} lines. */
@Command(
    name = "dump",
    mixinStandardHelpOptions = true,
    description =
        "Print the samples of a data directory, one per line: {labels} value timestamp_ms.")
final class TsdbDumpCommand implements Callable<Integer> {
  @Parameters(index = "0", description = "Data directory.")
  Path dir;

  @Option(
      names = "--match",
      defaultValue = "{__name__=~\".+\"}",
      description = "Series selector (default ${DEFAULT-VALUE}).")
  String match;

  @Option(
      names = "--min-time",
      defaultValue = "" + Long.MIN_VALUE,
      description = "Earliest timestamp in ms.")
  long minTime;

  @Option(
      names = "--max-time",
      defaultValue = "" + Long.MAX_VALUE,
      description = "Latest timestamp in ms.")
  long maxTime;

  @Override
  public Integer call() throws Exception {
    List<Matcher> matchers = SeriesSelector.parse(match);
    PrintWriter out =
        new PrintWriter(
            new BufferedWriter(
                new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16));
    try (Tsdb tsdb = Tsdb.openReadOnly(TsdbOptions.defaults(dir));
        Querier querier = tsdb.querier(minTime, maxTime)) {
      SeriesSet set = querier.select(true, matchers.toArray(new Matcher[0]));
      SampleIterator reuse = null;
      while (set.next()) {
        String labels = format(set.at().labels());
        SampleIterator it = set.at().iterator(reuse);
        reuse = it;
        while (it.next()) {
          out.append(labels).append(' ').append(formatValue(it.value())).append(' ');
          out.append(Long.toString(it.timestamp())).append('\n');
        }
      }
    }
    out.flush();
    return 0;
  }

  static String format(Labels labels) {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < labels.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(labels.name(i)).append("=\"");
      sb.append(labels.value(i).replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n"));
      sb.append('"');
    }
    return sb.append('}').toString();
  }

  static String formatValue(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return Double.toString(v);
  }
}
