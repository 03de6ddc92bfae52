package io.flightdeck.rules;

import io.flightdeck.model.DurationFormat;
import io.flightdeck.model.GoQuote;
import io.flightdeck.model.Labels;
import io.flightdeck.promql.PromQL;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.engine.EngineOptions;
import io.flightdeck.promql.engine.Sample;
import io.flightdeck.storage.Appendable;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.Queryable;
import io.flightdeck.storage.SampleRejectedException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * {@code promtool test rules}: runs rule unit-test files (rule_files, evaluation_interval,
 * group_eval_order, tests with input_series, alert_rule_test and promql_expr_test) against real
 * storage opened in a temporary directory, and prints promtool's report. Exit code 0 when every
 * file passes, 1 otherwise.
 */
public final class RuleUnitTester {
  /** Storage for one test group; {@code closer} releases it. */
  public record Storage(Appendable appendable, Queryable queryable, AutoCloseable closer) {}

  /**
   * Opens empty storage in a directory the tester creates and deletes. It must accept samples at
   * any time from the Unix epoch on, in any amount of history (no retention, no future limit).
   */
  @FunctionalInterface
  public interface StorageFactory {
    Storage open(Path directory) throws IOException;
  }

  private final StorageFactory storage;
  private final Engine engine = new Engine(EngineOptions.DEFAULT);

  public RuleUnitTester(StorageFactory storage) {
    this.storage = storage;
  }

  public int run(List<Path> files, PrintStream out, PrintStream err) {
    boolean failed = false;
    for (Path file : files) {
      out.println("Unit Testing:  " + file);
      List<String> errors = testFile(file, err);
      if (errors.isEmpty()) {
        out.println("  SUCCESS");
      } else {
        failed = true;
        err.println("  FAILED:");
        for (String e : errors) {
          err.println(e);
          out.println();
        }
      }
      out.println();
    }
    return failed ? 1 : 0;
  }

  private List<String> testFile(Path file, PrintStream err) {
    UnitTestFile tests;
    try {
      tests = UnitTestFile.parse(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      return List.of("open " + file + ": " + e.getMessage());
    } catch (YamlException e) {
      return List.of(e.getMessage());
    }
    List<Path> ruleFiles = new ArrayList<>();
    for (String pattern : tests.ruleFiles()) {
      String resolved = Path.of(pattern).isAbsolute() ? pattern : relative(file, pattern);
      List<Path> matched = RuleFileGlobs.expand(List.of(resolved));
      if (matched.isEmpty()) {
        err.println("  WARNING: no file match pattern " + resolved);
      }
      ruleFiles.addAll(matched);
    }
    Map<String, Integer> order = new HashMap<>();
    for (int i = 0; i < tests.groupEvalOrder().size(); i++) {
      if (order.putIfAbsent(tests.groupEvalOrder().get(i), i) != null) {
        return List.of("group name repeated in evaluation order: " + tests.groupEvalOrder().get(i));
      }
    }
    Duration evalInterval =
        tests.evaluationInterval().isZero() ? Duration.ofMinutes(1) : tests.evaluationInterval();
    List<String> errors = new ArrayList<>();
    for (UnitTestFile.TestGroup group : tests.tests()) {
      try {
        errors.addAll(new GroupRun(group, evalInterval.toMillis(), order, ruleFiles).run());
      } catch (IOException e) {
        errors.add(e.toString());
      }
    }
    return errors;
  }

  private static String relative(Path file, String pattern) {
    Path dir = file.getParent();
    return dir == null ? pattern : dir.resolve(pattern).toString();
  }

  /** One test group: its own storage, rule groups and clock. */
  private final class GroupRun {
    private final UnitTestFile.TestGroup tg;
    private final long evalInterval;
    private final Map<String, Integer> order;
    private final List<Path> ruleFiles;

    GroupRun(
        UnitTestFile.TestGroup tg,
        long evalInterval,
        Map<String, Integer> order,
        List<Path> ruleFiles) {
      this.tg = tg;
      this.evalInterval = evalInterval;
      this.order = order;
      this.ruleFiles = ruleFiles;
    }

    List<String> run() throws IOException {
      Path dir = Files.createTempDirectory("rules-test");
      try {
        Storage s = storage.open(dir);
        try {
          return run(s);
        } finally {
          try {
            s.closer().close();
          } catch (Exception e) {
            throw new IOException("closing test storage: " + e.getMessage(), e);
          }
        }
      } finally {
        deleteTree(dir);
      }
    }

    private List<String> run(Storage s) {
      long inputInterval = tg.interval().isZero() ? evalInterval : tg.interval().toMillis();
      List<String> errors = new ArrayList<>();
      List<String> loadErrors = load(s.appendable(), inputInterval);
      if (!loadErrors.isEmpty()) {
        return loadErrors;
      }
      AtomicLong now = new AtomicLong();
      RuleQuery query = RuleQuery.engine(engine, s.queryable());
      RuleManagerOptions options =
          RuleManagerOptions.defaults(s.appendable(), s.queryable(), query, AlertSink.NONE)
              .withClock(now::get)
              .withEvaluationInterval(Duration.ofMillis(inputInterval))
              .withExternal(tg.externalLabels(), tg.externalURL());
      List<RuleGroup> groups = new ArrayList<>();
      List<String> fileErrors = new ArrayList<>();
      for (Path file : ruleFiles) {
        try {
          RuleFile parsed = RuleFileParser.parse(file);
          for (RuleGroupSpec spec : parsed.groups()) {
            groups.add(new RuleGroup(spec, parsed.file(), options));
          }
        } catch (RuleFileException e) {
          fileErrors.addAll(e.errors());
        }
      }
      if (!fileErrors.isEmpty()) {
        return fileErrors;
      }
      groups.sort(Comparator.comparingInt(g -> order.getOrDefault(g.spec.name(), 0)));
      // As promtool does: ALERTS series are written from the first evaluation.
      groups.forEach(g -> g.setShouldRestore(false));
      for (UnitTestFile.AlertTest a : tg.alertTests()) {
        if (a.alertname().isEmpty()) {
          String in = tg.name().isEmpty() ? "" : " (in TestGroup " + tg.name() + ")";
          return List.of(
              "an item under alert_rule_test misses required attribute alertname at eval_time "
                  + DurationFormat.format(a.evalTime())
                  + in);
        }
      }
      List<UnitTestFile.AlertTest> pending =
          new ArrayList<>(
              tg.alertTests().stream()
                  .sorted(Comparator.comparing(UnitTestFile.AlertTest::evalTime))
                  .toList());
      long maxt = tg.maxEvalTimeMs();
      for (long ts = 0; ts <= maxt; ts += evalInterval) {
        now.set(ts);
        List<String> evalErrors = new ArrayList<>();
        for (RuleGroup g : groups) {
          g.eval(ts);
          for (Rule r : g.rules) {
            if (r.health == RuleHealth.ERR) {
              evalErrors.add(
                  "    rule: %s, time: %s, err: %s"
                      .formatted(r.name(), GoTime.goDuration(ts), r.lastError));
            }
          }
        }
        errors.addAll(evalErrors);
        if (!evalErrors.isEmpty()) {
          return errors;
        }
        while (!pending.isEmpty() && pending.getFirst().evalTime().toMillis() < ts + evalInterval) {
          UnitTestFile.AlertTest test = pending.removeFirst();
          String problem = checkAlerts(test, groups);
          if (problem != null) {
            errors.add(problem);
          }
        }
      }
      for (UnitTestFile.ExprTest test : tg.exprTests()) {
        String problem = checkExpr(test, query);
        if (problem != null) {
          errors.add(problem);
        }
      }
      return errors;
    }

    private List<String> load(Appendable appendable, long interval) {
      Appender app = appendable.appender();
      List<String> errors = new ArrayList<>();
      for (UnitTestFile.InputSeries series : tg.inputSeries()) {
        Labels labels;
        List<Double> values;
        try {
          labels = SeriesDescription.metric(series.series());
          values = SeriesDescription.values(series.values());
        } catch (IllegalArgumentException e) {
          app.rollback();
          return List.of(e.getMessage());
        }
        long ref = 0;
        for (int i = 0; i < values.size(); i++) {
          if (values.get(i) == null) {
            continue;
          }
          try {
            ref = app.append(ref, labels, i * interval, values.get(i));
          } catch (SampleRejectedException e) {
            errors.add(e.getMessage());
          }
        }
      }
      app.commit();
      return errors;
    }

    private String checkAlerts(UnitTestFile.AlertTest test, List<RuleGroup> groups) {
      List<String[]> got = new ArrayList<>();
      for (RuleGroup g : groups) {
        for (Rule r : g.rules) {
          if (r instanceof AlertingRule ar && ar.name().equals(test.alertname())) {
            for (Alert a : ar.activeAlerts()) {
              if (a.state() == AlertState.FIRING) {
                got.add(new String[] {goLabels(a.labels()), goLabels(a.annotations())});
              }
            }
          }
        }
      }
      List<String[]> exp = new ArrayList<>();
      for (UnitTestFile.ExpAlert a : test.expAlerts()) {
        Map<String, String> labels = new HashMap<>(a.labels());
        labels.put("alertname", test.alertname());
        exp.add(new String[] {goLabels(Labels.fromMap(labels)), goLabels(a.annotations())});
      }
      Comparator<String[]> byText =
          Comparator.comparing((String[] x) -> x[0]).thenComparing(x -> x[1]);
      got.sort(byText);
      exp.sort(byText);
      if (same(got, exp)) {
        return null;
      }
      String name = tg.name().isEmpty() ? "" : "    name: " + tg.name() + ",\n";
      return "%s    alertname: %s, time: %s, \n        exp:%s, \n        got:%s"
          .formatted(
              name,
              test.alertname(),
              DurationFormat.format(test.evalTime()),
              alertList(exp),
              alertList(got));
    }

    private static boolean same(List<String[]> a, List<String[]> b) {
      if (a.size() != b.size()) {
        return false;
      }
      for (int i = 0; i < a.size(); i++) {
        if (!a.get(i)[0].equals(b.get(i)[0]) || !a.get(i)[1].equals(b.get(i)[1])) {
          return false;
        }
      }
      return true;
    }

    private static String alertList(List<String[]> alerts) {
      if (alerts.isEmpty()) {
        return "[]";
      }
      StringBuilder s = new StringBuilder("[\n");
      String indent = "            ";
      for (int i = 0; i < alerts.size(); i++) {
        s.append(i == 0 ? "" : ",\n")
            .append(indent)
            .append(i)
            .append(":\n")
            .append(indent)
            .append("  Labels:")
            .append(alerts.get(i)[0])
            .append('\n')
            .append(indent)
            .append("  Annotations:")
            .append(alerts.get(i)[1]);
      }
      return s.append('\n').append(indent).append(']').toString();
    }

    private String checkExpr(UnitTestFile.ExprTest test, RuleQuery query) {
      String head =
          "    expr: %s, time: %s"
              .formatted(GoQuote.quote(test.expr()), DurationFormat.format(test.evalTime()));
      List<Sample> result;
      try {
        result = query.query(PromQL.parse(test.expr()), test.evalTime().toMillis());
      } catch (RuntimeException e) {
        return head + ", err: " + e.getMessage();
      }
      List<Map.Entry<Labels, Double>> got = new ArrayList<>();
      for (Sample s : result) {
        got.add(Map.entry(s.labels(), s.value()));
      }
      List<Map.Entry<Labels, Double>> exp = new ArrayList<>();
      for (UnitTestFile.ExpSample s : test.expSamples()) {
        try {
          exp.add(Map.entry(SeriesDescription.metric(s.labels()), s.value()));
        } catch (IllegalArgumentException e) {
          return head + ", err: labels " + GoQuote.quote(s.labels()) + ": " + e.getMessage();
        }
      }
      got.sort(Map.Entry.comparingByKey());
      exp.sort(Map.Entry.comparingByKey());
      boolean same = got.size() == exp.size();
      for (int i = 0; same && i < got.size(); i++) {
        same =
            got.get(i).getKey().equals(exp.get(i).getKey())
                && got.get(i).getValue().doubleValue() == exp.get(i).getValue().doubleValue();
      }
      if (same) {
        return null;
      }
      return head + ",\n        exp: " + samples(exp) + "\n        got: " + samples(got);
    }

    private static String samples(List<Map.Entry<Labels, Double>> samples) {
      if (samples.isEmpty()) {
        return "nil";
      }
      List<String> parts = new ArrayList<>();
      for (Map.Entry<Labels, Double> s : samples) {
        parts.add(goLabels(s.getKey()) + " " + GoFormat.e(s.getValue(), -1).toUpperCase());
      }
      return String.join(", ", parts);
    }
  }

  /** Go's {@code labels.String()}: every label, the name included, values quoted. */
  static String goLabels(Labels labels) {
    Map<String, String> map = new TreeMap<>();
    labels.forEach(map::put);
    return goLabels(map);
  }

  static String goLabels(Map<String, String> map) {
    StringBuilder s = new StringBuilder("{");
    String sep = "";
    for (Map.Entry<String, String> e : new TreeMap<>(map).entrySet()) {
      s.append(sep).append(e.getKey()).append('=').append(GoQuote.quote(e.getValue()));
      sep = ", ";
    }
    return s.append('}').toString();
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
