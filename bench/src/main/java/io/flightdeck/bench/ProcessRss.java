package io.flightdeck.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A process's resident memory as Linux reports it ({@code VmRSS} in /proc/PID/status). */
final class ProcessRss {
  private ProcessRss() {}

  /** In KiB; 0 when the process is gone or the file unreadable. */
  static long kib(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | NumberFormatException e) {
      // The process is gone: nothing resident.
    }
    return 0;
  }
}
