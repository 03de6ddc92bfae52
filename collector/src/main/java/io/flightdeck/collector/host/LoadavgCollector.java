package io.flightdeck.collector.host;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** node_exporter's {@code loadavg} collector: the three load averages of /proc/loadavg. */
final class LoadavgCollector implements Collector {
  private static final String FILE = "loadavg";
  private static final String[] WINDOWS = {"1", "5", "15"};

  private final Path procRoot;

  LoadavgCollector(Path procRoot) {
    this.procRoot = procRoot;
  }

  @Override
  public String name() {
    return "loadavg";
  }

  @Override
  public List<MetricFamily> collect() throws IOException {
    List<String> lines = ProcFile.lines(procRoot, FILE);
    String line = lines.isEmpty() ? "" : lines.get(0);
    String[] fields = ProcFile.fields(line);
    if (fields.length < WINDOWS.length) {
      throw new MalformedProcFileException("expected three load averages", FILE, line);
    }
    MetricFamily[] families = new MetricFamily[WINDOWS.length];
    for (int i = 0; i < WINDOWS.length; i++) {
      families[i] =
          MetricFamily.gauge("node_load" + WINDOWS[i], WINDOWS[i] + "m load average.")
              .add(ProcFile.number(fields[i], FILE, line));
    }
    return List.of(families);
  }
}
