package io.flightdeck.rules;

import io.flightdeck.model.GoQuote;
import io.flightdeck.promql.PromQL;
import io.flightdeck.promql.parser.ParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The checks promtool makes on one rule, in its order and with its words. */
final class RuleValidator {
  /** One problem; {@code position} is "line:col: " (or two of them), or empty when unknown. */
  record Problem(String position, String message) {}

  private RuleValidator() {}

  static List<Problem> validate(
      YamlNode.Scalar recordNode, YamlNode.Scalar alertNode, YamlNode.Scalar exprNode, RuleSpec r) {
    List<Problem> out = new ArrayList<>();
    if (r.record() != null && r.alert() != null) {
      out.add(
          new Problem(
              at(recordNode) + at(alertNode), "only one of 'record' and 'alert' must be set"));
    }
    if (r.record() == null && r.alert() == null) {
      out.add(new Problem(at(recordNode), "one of 'record' or 'alert' must be set"));
    }
    if (r.expr() == null) {
      out.add(new Problem(at(exprNode), "field 'expr' must be set in rule"));
    } else {
      try {
        PromQL.parse(r.expr());
      } catch (ParseException e) {
        out.add(new Problem(at(exprNode), "could not parse expression: " + e.getMessage()));
      }
    }
    if (r.record() != null) {
      if (!r.annotations().isEmpty()) {
        out.add(new Problem(at(recordNode), "invalid field 'annotations' in recording rule"));
      }
      if (!r.forDuration().isZero()) {
        out.add(new Problem(at(recordNode), "invalid field 'for' in recording rule"));
      }
      if (!r.keepFiringFor().isZero()) {
        out.add(new Problem(at(recordNode), "invalid field 'keep_firing_for' in recording rule"));
      }
      if (!Names.isMetricName(r.record())) {
        out.add(new Problem(at(recordNode), "invalid recording rule name: " + r.record()));
      }
    }
    for (String name : sorted(r.labels()).keySet()) {
      if (!Names.isLabelName(name) || name.equals("__name__")) {
        out.add(new Problem("", "invalid label name: " + name));
      }
    }
    for (String name : sorted(r.annotations()).keySet()) {
      if (!Names.isLabelName(name)) {
        out.add(new Problem("", "invalid annotation name: " + name));
      }
    }
    if (r.alert() != null) {
      templates(r, "label", r.labels(), out);
      templates(r, "annotation", r.annotations(), out);
    }
    return out;
  }

  private static void templates(
      RuleSpec r, String kind, Map<String, String> texts, List<Problem> out) {
    sorted(texts)
        .forEach(
            (name, text) -> {
              try {
                Template.parse("__alert_" + r.alert(), text);
              } catch (TemplateException e) {
                out.add(new Problem("", kind + " " + GoQuote.quote(name) + ": " + e.getMessage()));
              }
            });
  }

  private static Map<String, String> sorted(Map<String, String> map) {
    return new TreeMap<>(map);
  }

  /** Go yaml's position of a node; 0:0 for a field that is absent, as promtool prints it. */
  private static String at(YamlNode.Scalar node) {
    return node == null ? "0:0: " : node.line() + ":" + node.column() + ": ";
  }
}
