package io.flightdeck.collector.host;

import io.flightdeck.model.Labels;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * node_exporter's {@code diskstats} collector, the /proc/diskstats part (not the udev-based {@code
 * node_disk_info}): per-device I/O counters, sectors turned into bytes and milliseconds into
 * seconds exactly as node_exporter computes them.
 */
final class DiskstatsCollector implements Collector {
  private static final String FILE = "diskstats";

  /**
   * node_exporter's default {@code --collector.diskstats.device-exclude}: partitions, RAM, zram,
   * loop and floppy devices, whose I/O is already counted on the whole disk or is not disk I/O.
   */
  static final Predicate<String> DEFAULT_EXCLUDE =
      Pattern.compile("^(z?ram|loop|fd|(h|s|v|xv)d[a-z]|nvme\\d+n\\d+p)\\d+$").asPredicate();

  /** The kernel counts in 512-byte sectors whatever the device's real sector size. */
  private static final double SECTOR_BYTES = 512;

  /** Go's {@code 1.0 / 1000.0}: multiplying by it, not dividing by 1000, matches node_exporter. */
  private static final double SECONDS_PER_MILLISECOND = 1.0 / 1000.0;

  /** One exported column: its index after major, minor and name, and how to scale it. */
  private record Column(int index, double scale, MetricFamily family) {}

  private final Path procRoot;
  private final Predicate<String> excluded;

  /** {@code excluded} tests device names, like {@code --collector.diskstats.device-exclude}. */
  DiskstatsCollector(Path procRoot, Predicate<String> excluded) {
    this.procRoot = procRoot;
    this.excluded = excluded;
  }

  @Override
  public String name() {
    return "diskstats";
  }

  @Override
  public List<MetricFamily> collect() throws IOException {
    List<Column> columns = columns();
    for (String line : ProcFile.lines(procRoot, FILE)) {
      String[] fields = ProcFile.fields(line);
      if (fields.length == 0) {
        continue;
      }
      // Kernels before 4.18 have 11 counters, before 5.5 have 15, newer ones 17.
      if (fields.length < 3 + 11) {
        throw new MalformedProcFileException("expected at least 11 counters", FILE, line);
      }
      String device = fields[2];
      if (excluded.test(device)) {
        continue;
      }
      Labels labels = Labels.of("device", device); // one set for the device's 17 series
      for (Column column : columns) {
        int at = 3 + column.index();
        if (at < fields.length) {
          double value = ProcFile.number(fields[at], FILE, line) * column.scale();
          column.family().add(value, labels);
        }
      }
    }
    List<MetricFamily> families = new ArrayList<>();
    for (Column column : columns) {
      if (!column.family().samples().isEmpty()) {
        families.add(column.family());
      }
    }
    return families;
  }

  private static List<Column> columns() {
    return List.of(
        counter(0, 1, "reads_completed_total", "The total number of reads completed successfully."),
        counter(1, 1, "reads_merged_total", "The total number of reads merged."),
        counter(
            2, SECTOR_BYTES, "read_bytes_total", "The total number of bytes read successfully."),
        counter(
            3,
            SECONDS_PER_MILLISECOND,
            "read_time_seconds_total",
            "The total number of seconds spent by all reads."),
        counter(
            4, 1, "writes_completed_total", "The total number of writes completed successfully."),
        counter(5, 1, "writes_merged_total", "The number of writes merged."),
        counter(
            6,
            SECTOR_BYTES,
            "written_bytes_total",
            "The total number of bytes written successfully."),
        counter(
            7,
            SECONDS_PER_MILLISECOND,
            "write_time_seconds_total",
            "This is the total number of seconds spent by all writes."),
        new Column(
            8,
            1,
            MetricFamily.gauge("node_disk_io_now", "The number of I/Os currently in progress.")),
        counter(
            9, SECONDS_PER_MILLISECOND, "io_time_seconds_total", "Total seconds spent doing I/Os."),
        counter(
            10,
            SECONDS_PER_MILLISECOND,
            "io_time_weighted_seconds_total",
            "The weighted # of seconds spent doing I/Os."),
        counter(
            11,
            1,
            "discards_completed_total",
            "The total number of discards completed successfully."),
        counter(12, 1, "discards_merged_total", "The total number of discards merged."),
        counter(
            13,
            1,
            "discarded_sectors_total",
            "The total number of sectors discarded successfully."),
        counter(
            14,
            SECONDS_PER_MILLISECOND,
            "discard_time_seconds_total",
            "This is the total number of seconds spent by all discards."),
        counter(
            15,
            1,
            "flush_requests_total",
            "The total number of flush requests completed successfully"),
        counter(
            16,
            SECONDS_PER_MILLISECOND,
            "flush_requests_time_seconds_total",
            "This is the total number of seconds spent by all flush requests."));
  }

  private static Column counter(int index, double scale, String suffix, String help) {
    return new Column(index, scale, MetricFamily.counter("node_disk_" + suffix, help));
  }
}
