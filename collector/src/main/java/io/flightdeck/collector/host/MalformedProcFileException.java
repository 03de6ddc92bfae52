package io.flightdeck.collector.host;

import java.io.IOException;

/** A procfs file that does not have the layout its collector expects. */
final class MalformedProcFileException extends IOException {
  MalformedProcFileException(String problem, String file, String line) {
    super(problem + " [file=" + file + ", line=" + line + "]");
  }
}
