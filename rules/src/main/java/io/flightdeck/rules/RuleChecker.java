package io.flightdeck.rules;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code promtool check rules}: validates rule files and prints "Checking FILE" then " SUCCESS: N
 * rules found", or " FAILED:" and the errors on the error stream. Exit code 1 if any file failed.
 */
public final class RuleChecker {
  public int run(List<Path> files, PrintStream out, PrintStream err) {
    boolean failed = false;
    for (Path file : files) {
      out.println("Checking " + file);
      try {
        RuleFile parsed = RuleFileParser.parse(file);
        out.println("  SUCCESS: " + parsed.ruleCount() + " rules found");
      } catch (RuleFileException e) {
        failed = true;
        err.println("  FAILED:");
        e.errors().forEach(err::println);
      }
      out.println();
    }
    return failed ? 1 : 0;
  }
}
