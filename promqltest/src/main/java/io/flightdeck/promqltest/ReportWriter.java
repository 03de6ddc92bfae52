package io.flightdeck.promqltest;

import java.io.PrintWriter;
import java.util.List;

/**
 * Prints script results: for each file, one line per failed command ({@code FILE:LINE: query:
 * problem}) and, when verbose, per skipped command with its reason, then {@code FILE: N passed, N
 * failed, N skipped}; last the totals in the same form.
 */
public final class ReportWriter {
  private ReportWriter() {}

  public static void write(List<ScriptResult> results, PrintWriter out, boolean verbose) {
    long passed = 0;
    long failed = 0;
    long skipped = 0;
    for (ScriptResult result : results) {
      for (Outcome o : result.outcomes()) {
        if (o.status() == Outcome.Status.FAILED) {
          out.println(result.file() + ":" + o.line() + ": " + o.query() + ": " + o.message());
        } else if (verbose && o.status() == Outcome.Status.SKIPPED) {
          out.println(
              result.file() + ":" + o.line() + ": " + o.query() + ": skipped: " + o.message());
        }
      }
      out.println(result.file() + ": " + counts(result));
      passed += result.count(Outcome.Status.PASSED);
      failed += result.count(Outcome.Status.FAILED);
      skipped += result.count(Outcome.Status.SKIPPED);
    }
    out.println(counts(passed, failed, skipped));
    out.flush();
  }

  /** {@code N passed, N failed, N skipped}. */
  public static String counts(ScriptResult result) {
    return counts(
        result.count(Outcome.Status.PASSED),
        result.count(Outcome.Status.FAILED),
        result.count(Outcome.Status.SKIPPED));
  }

  private static String counts(long passed, long failed, long skipped) {
    return passed + " passed, " + failed + " failed, " + skipped + " skipped";
  }
}
