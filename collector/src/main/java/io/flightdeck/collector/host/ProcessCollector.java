package io.flightdeck.collector.host;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Host-side figures of chosen processes (the training processes found on the GPUs) from {@code
 * <procfs>/<pid>}: resident memory, CPU seconds and open files, as {@code flightdeck_process_*}
 * with labels {@code pid} and {@code comm}. A process that exits or whose files are unreadable
 * between the listing and the read is left out of that collection. Stateless and thread-safe.
 */
public final class ProcessCollector {
  /** The kernel's USER_HZ, fixed at 100 on Linux for what procfs reports (as node_exporter). */
  private static final double TICKS_PER_SECOND = 100;

  private final Path procRoot;

  public ProcessCollector(Path procRoot) {
    this.procRoot = procRoot;
  }

  /** The families for {@code pids}, empty (no series) when none can be read. */
  public List<MetricFamily> collect(Set<Integer> pids) {
    MetricFamily rss =
        MetricFamily.gauge(
            "flightdeck_process_resident_memory_bytes",
            "Resident memory of a process using a GPU, in bytes.");
    MetricFamily cpu =
        MetricFamily.counter(
            "flightdeck_process_cpu_seconds_total",
            "User and system CPU time of a process using a GPU, in seconds.");
    MetricFamily fds =
        MetricFamily.gauge(
            "flightdeck_process_open_fds", "Open file descriptors of a process using a GPU.");
    for (int pid : new TreeSet<>(pids)) {
      Path dir = procRoot.resolve(Integer.toString(pid));
      try {
        String stat = Files.readString(dir.resolve("stat"));
        // comm is in parentheses and may hold spaces and parentheses: cut at the last ')'.
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        if (open < 0 || close < open) {
          continue;
        }
        String comm = stat.substring(open + 1, close);
        String[] rest = ProcFile.fields(stat.substring(close + 1));
        // After comm: state(0) ... utime(11) stime(12), fields 14 and 15 of proc(5).
        double seconds =
            (Double.parseDouble(rest[11]) + Double.parseDouble(rest[12])) / TICKS_PER_SECOND;
        double rssBytes = residentBytes(dir);
        long openFiles = countFds(dir);
        String[] labels = {"pid", Integer.toString(pid), "comm", comm};
        cpu.add(seconds, labels);
        rss.add(rssBytes, labels);
        fds.add(openFiles, labels);
      } catch (IOException | RuntimeException e) {
        // Exited, unreadable or malformed: that process is left out until the next collection.
      }
    }
    return List.of(rss, cpu, fds);
  }

  /** VmRSS of /proc/<pid>/status, in bytes (kB there); 0 for kernel threads, which have none. */
  private static double residentBytes(Path dir) throws IOException {
    for (String line : Files.readAllLines(dir.resolve("status"))) {
      if (line.startsWith("VmRSS:")) {
        return Double.parseDouble(ProcFile.fields(line.substring(6))[0]) * 1024;
      }
    }
    return 0;
  }

  private static long countFds(Path dir) throws IOException {
    long count = 0;
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir.resolve("fd"))) {
      for (Path ignored : entries) {
        count++;
      }
    }
    return count;
  }
}
