package io.flightdeck.collector.host;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * node_exporter's {@code meminfo} collector: one gauge per /proc/meminfo field, named as
 * node_exporter names it so that dashboards built on it keep working.
 */
final class MeminfoCollector implements Collector {
  private static final String FILE = "meminfo";

  /** {@code Active(anon)} becomes {@code Active_anon}: parentheses are not legal in a name. */
  private static final Pattern PARENTHESES = Pattern.compile("\\((.*)\\)");

  private final Path procRoot;

  MeminfoCollector(Path procRoot) {
    this.procRoot = procRoot;
  }

  @Override
  public String name() {
    return "meminfo";
  }

  @Override
  public List<MetricFamily> collect() throws IOException {
    List<MetricFamily> families = new ArrayList<>();
    for (String line : ProcFile.lines(procRoot, FILE)) {
      String[] fields = ProcFile.fields(line);
      if (fields.length == 0) {
        continue;
      }
      if (fields.length > 3 || fields.length < 2 || !fields[0].endsWith(":")) {
        throw new MalformedProcFileException("expected 'Field: value [kB]'", FILE, line);
      }
      String key = fields[0].substring(0, fields[0].length() - 1);
      if (key.indexOf('(') >= 0) { // a handful of the fifty fields: no matcher for the others
        key = PARENTHESES.matcher(key).replaceAll("_$1");
      }
      double value = ProcFile.number(fields[1], FILE, line);
      // A unit means kB (1024 bytes); fields without one are counts, such as HugePages_Total.
      if (fields.length == 3) {
        value *= 1024;
        key += "_bytes";
      }
      families.add(
          MetricFamily.gauge("node_memory_" + key, "Memory information field " + key + ".")
              .add(value));
    }
    return families;
  }
}
