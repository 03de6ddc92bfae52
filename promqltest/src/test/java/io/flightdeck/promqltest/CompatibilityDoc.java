package io.flightdeck.promqltest;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code docs/promql-compatibility.md}: the runner's remaining failures, one list item per failed
 * command keyed by {@code `file:line`}, written from a run and read back to compare with the next.
 */
final class CompatibilityDoc {
  static final String REGENERATE_PROPERTY = "promqltest.writeCompatibilityDoc";
  private static final Pattern ITEM = Pattern.compile("^- `([^`]+:\\d+)`", Pattern.MULTILINE);

  private CompatibilityDoc() {}

  /** The {@code file:line} keys of the failures the document lists. */
  static Set<String> listedFailures(String markdown) {
    Set<String> keys = new LinkedHashSet<>();
    Matcher m = ITEM.matcher(markdown);
    while (m.find()) {
      keys.add(m.group(1));
    }
    return keys;
  }

  static String key(ScriptResult result, Outcome outcome) {
    return result.file() + ":" + outcome.line();
  }

  static String render(List<ScriptResult> upstream, List<ScriptResult> own) {
    StringBuilder md = new StringBuilder();
    md.append("# PromQL compatibility\n\n")
        .append("What the `promqltest` runner reports for Prometheus v3.14's own test scripts\n")
        .append(
            "(`../shared/promql-tests`) and for ours (`promqltest/src/test/resources/scripts`),\n")
        .append("run against the engine on the embedded TSDB. `SharedScriptsTest` fails when a\n")
        .append("command fails that is not listed below, or when a listed one passes. Regenerate\n")
        .append("this file after fixing or breaking something with\n\n")
        .append("```\n./mvnw -o -q -pl promqltest verify -D")
        .append(REGENERATE_PROPERTY)
        .append("=true\n```\n\n")
        .append("Skipped commands need native histograms, which the engine and database do not\n")
        .append(
            "support yet (`./flightdeck promql-test --verbose FILE` lists them with reasons).\n")
        .append("The pass ratio counts passed / (passed + failed) over the upstream scripts.\n\n")
        .append("## Summary\n\n");
    table(md, upstream);
    long passed = upstream.stream().mapToLong(r -> r.count(Outcome.Status.PASSED)).sum();
    long failed = upstream.stream().mapToLong(r -> r.count(Outcome.Status.FAILED)).sum();
    md.append(
        String.format("%nPass ratio: %.1f%%%n%n", 100.0 * passed / Math.max(1, passed + failed)));
    md.append("Our own scripts:\n\n");
    table(md, own);
    md.append("\n## Failures\n");
    if (Stream.concat(upstream.stream(), own.stream())
        .allMatch(r -> r.count(Outcome.Status.FAILED) == 0)) {
      md.append("\nNone: every command that ran passed.\n");
    }
    failures(md, upstream);
    failures(md, own);
    return md.toString();
  }

  private static void table(StringBuilder md, List<ScriptResult> results) {
    md.append("| script | passed | failed | skipped |\n|---|---:|---:|---:|\n");
    for (ScriptResult r : results) {
      md.append("| ")
          .append(r.file())
          .append(" | ")
          .append(r.count(Outcome.Status.PASSED))
          .append(" | ")
          .append(r.count(Outcome.Status.FAILED))
          .append(" | ")
          .append(r.count(Outcome.Status.SKIPPED))
          .append(" |\n");
    }
  }

  private static void failures(StringBuilder md, List<ScriptResult> results) {
    for (ScriptResult r : results) {
      List<Outcome> failed = r.outcomes(Outcome.Status.FAILED);
      if (failed.isEmpty()) {
        continue;
      }
      md.append("\n### ").append(r.file()).append("\n\n");
      for (Outcome o : failed) {
        md.append("- `")
            .append(key(r, o))
            .append("` ")
            .append(code(o.query()))
            .append(": ")
            .append(o.message().replace('\n', ' '))
            .append('\n');
      }
    }
  }

  /** Inline code that survives backquotes in the query. */
  private static String code(String text) {
    return text.contains("`") ? "`` " + text + " ``" : "`" + text + "`";
  }
}
