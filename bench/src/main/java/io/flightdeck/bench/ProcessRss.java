package io.flightdeck.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A process's resident memory as Linux reports it in /proc/PID/status: all of it ({@code VmRSS}) or
 * its anonymous part ({@code RssAnon}: heap and other private memory, without the pages of files it
 * maps, such as TSDB blocks, which the kernel can drop when memory is short).
 */
final class ProcessRss {
  private ProcessRss() {}

  /** VmRSS in KiB; 0 when the process is gone or the file unreadable. */
  static long kib(long pid) {
    return field(pid, "VmRSS:");
  }

  /** RssAnon in KiB; 0 when the process is gone or the file unreadable. */
  static long anonymousKib(long pid) {
    return field(pid, "RssAnon:");
  }

  private static long field(long pid, String name) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith(name)) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | NumberFormatException e) {
      // The process is gone: nothing resident.
    }
    return 0;
  }
}
