package io.flightdeck.rules;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A promtool rule test file, read strictly (unknown fields are errors, as in promtool). */
record UnitTestFile(
    List<String> ruleFiles,
    Duration evaluationInterval,
    List<String> groupEvalOrder,
    List<TestGroup> tests) {

  record TestGroup(
      String name,
      Duration interval,
      List<InputSeries> inputSeries,
      List<AlertTest> alertTests,
      List<ExprTest> exprTests,
      Map<String, String> externalLabels,
      String externalURL) {

    long maxEvalTimeMs() {
      long max = 0;
      for (AlertTest a : alertTests) {
        max = Math.max(max, a.evalTime().toMillis());
      }
      for (ExprTest e : exprTests) {
        max = Math.max(max, e.evalTime().toMillis());
      }
      return max;
    }
  }

  record InputSeries(String series, String values) {}

  record AlertTest(Duration evalTime, String alertname, List<ExpAlert> expAlerts) {}

  record ExpAlert(Map<String, String> labels, Map<String, String> annotations) {}

  record ExprTest(String expr, Duration evalTime, List<ExpSample> expSamples) {}

  record ExpSample(String labels, double value) {}

  /**
   * @throws YamlException with Go yaml's wording
   */
  static UnitTestFile parse(String text) {
    Reader r = new Reader();
    UnitTestFile file = r.file(YamlReader.read(text));
    r.finish();
    return file;
  }

  private static final class Reader extends YamlDecoder {
    UnitTestFile file(YamlNode root) {
      List<String> ruleFiles = List.of();
      Duration interval = Duration.ZERO;
      List<String> order = List.of();
      List<TestGroup> tests = new ArrayList<>();
      for (YamlNode.Entry e : mapping(root, "main.unitTestFile")) {
        switch (e.key().text()) {
          case "rule_files" -> ruleFiles = strings(e.value());
          case "evaluation_interval" -> interval = duration(e.value());
          case "group_eval_order" -> order = strings(e.value());
          case "tests" -> sequence(e.value()).forEach(n -> tests.add(group(n)));
          default -> unknown(e, "main.unitTestFile");
        }
      }
      return new UnitTestFile(ruleFiles, interval, order, tests);
    }

    private TestGroup group(YamlNode node) {
      String name = "";
      Duration interval = Duration.ZERO;
      List<InputSeries> series = new ArrayList<>();
      List<AlertTest> alerts = new ArrayList<>();
      List<ExprTest> exprs = new ArrayList<>();
      Map<String, String> external = Map.of();
      String url = "";
      for (YamlNode.Entry e : mapping(node, "main.testGroup")) {
        switch (e.key().text()) {
          case "name" -> name = string(e.value());
          case "interval" -> interval = duration(e.value());
          case "input_series" -> sequence(e.value()).forEach(n -> series.add(series(n)));
          case "alert_rule_test" -> sequence(e.value()).forEach(n -> alerts.add(alertTest(n)));
          case "promql_expr_test" -> sequence(e.value()).forEach(n -> exprs.add(exprTest(n)));
          case "external_labels" -> external = stringMap(e.value());
          case "external_url" -> url = string(e.value());
          default -> unknown(e, "main.testGroup");
        }
      }
      return new TestGroup(name, interval, series, alerts, exprs, external, url);
    }

    private InputSeries series(YamlNode node) {
      String series = "";
      String values = "";
      for (YamlNode.Entry e : mapping(node, "main.series")) {
        switch (e.key().text()) {
          case "series" -> series = string(e.value());
          case "values" -> values = string(e.value());
          default -> unknown(e, "main.series");
        }
      }
      return new InputSeries(series, values);
    }

    private AlertTest alertTest(YamlNode node) {
      Duration evalTime = Duration.ZERO;
      String alertname = "";
      List<ExpAlert> expected = new ArrayList<>();
      for (YamlNode.Entry e : mapping(node, "main.alertTestCase")) {
        switch (e.key().text()) {
          case "eval_time" -> evalTime = duration(e.value());
          case "alertname" -> alertname = string(e.value());
          case "exp_alerts" -> sequence(e.value()).forEach(n -> expected.add(expAlert(n)));
          default -> unknown(e, "main.alertTestCase");
        }
      }
      return new AlertTest(evalTime, alertname, expected);
    }

    private ExpAlert expAlert(YamlNode node) {
      Map<String, String> labels = Map.of();
      Map<String, String> annotations = Map.of();
      for (YamlNode.Entry e : mapping(node, "main.alert")) {
        switch (e.key().text()) {
          case "exp_labels" -> labels = stringMap(e.value());
          case "exp_annotations" -> annotations = stringMap(e.value());
          default -> unknown(e, "main.alert");
        }
      }
      return new ExpAlert(labels, annotations);
    }

    private ExprTest exprTest(YamlNode node) {
      String expr = "";
      Duration evalTime = Duration.ZERO;
      List<ExpSample> samples = new ArrayList<>();
      for (YamlNode.Entry e : mapping(node, "main.promqlTestCase")) {
        switch (e.key().text()) {
          case "expr" -> expr = string(e.value());
          case "eval_time" -> evalTime = duration(e.value());
          case "exp_samples" -> sequence(e.value()).forEach(n -> samples.add(sample(n)));
          default -> unknown(e, "main.promqlTestCase");
        }
      }
      return new ExprTest(expr, evalTime, samples);
    }

    private ExpSample sample(YamlNode node) {
      String labels = "";
      double value = 0;
      for (YamlNode.Entry e : mapping(node, "main.sample")) {
        switch (e.key().text()) {
          case "labels" -> labels = string(e.value());
          case "value" -> value = floating(e.value());
          default -> unknown(e, "main.sample");
        }
      }
      return new ExpSample(labels, value);
    }
  }
}
