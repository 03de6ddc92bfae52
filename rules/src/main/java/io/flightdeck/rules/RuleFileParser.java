package io.flightdeck.rules;

import io.flightdeck.model.GoQuote;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads rule files in Prometheus's format strictly, with promtool's error texts: unknown fields,
 * duplicate keys, wrong types, invalid durations, expressions, names and templates are all refused
 * with the file, position, group and rule named.
 */
public final class RuleFileParser {
  private RuleFileParser() {}

  /**
   * Reads and validates one file.
   *
   * @throws RuleFileException listing every problem, one promtool-style line each
   */
  public static RuleFile parse(Path path) {
    String text;
    try {
      text = Files.readString(path, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new RuleFileException(List.of(path + ": open " + path + ": no such file or directory"));
    } catch (IOException e) {
      throw new RuleFileException(List.of(path + ": open " + path + ": " + e.getMessage()));
    }
    return parse(path.toString(), text);
  }

  /** Validates {@code text} as the content of a file named {@code file}. */
  public static RuleFile parse(String file, String text) {
    List<String> errors = new ArrayList<>();
    List<RuleGroupSpec> groups = new ArrayList<>();
    try {
      YamlNode root = YamlReader.read(text);
      Decoder decoder = new Decoder();
      List<RawGroup> raw = decoder.groups(root);
      decoder.finish();
      validate(raw, groups, errors);
    } catch (YamlException e) {
      errors.add(e.getMessage());
    }
    if (!errors.isEmpty()) {
      throw new RuleFileException(errors.stream().map(e -> file + ": " + e).toList());
    }
    return new RuleFile(file, groups);
  }

  /** A group as decoded, with the nodes that errors point at. */
  private record RawGroup(YamlNode node, RuleGroupSpec spec, List<RawRule> rules) {}

  private record RawRule(
      YamlNode.Scalar record, YamlNode.Scalar alert, YamlNode.Scalar expr, RuleSpec spec) {}

  private static void validate(List<RawGroup> raw, List<RuleGroupSpec> out, List<String> errors) {
    Set<String> names = new HashSet<>();
    Map<String, String> recordedSeries = new HashMap<>();
    for (RawGroup group : raw) {
      String name = group.spec().name();
      String at = group.node().line() + ":" + group.node().column() + ": ";
      if (name.isEmpty()) {
        errors.add(at + "Groupname must not be empty");
      }
      if (!names.add(name)) {
        errors.add(at + "groupname: \"" + name + "\" is repeated in the same file");
      }
      for (String label : new TreeMap<>(group.spec().labels()).keySet()) {
        if (!Names.isLabelName(label) || label.equals("__name__")) {
          errors.add("invalid label name: " + label);
        }
      }
      for (int i = 0; i < group.rules().size(); i++) {
        RawRule rule = group.rules().get(i);
        String prefix =
            "group %s, rule %d, %s: "
                .formatted(
                    GoQuote.quote(name), i + 1, GoQuote.quote(nullToEmpty(rule.spec().name())));
        for (RuleValidator.Problem p :
            RuleValidator.validate(rule.record(), rule.alert(), rule.expr(), rule.spec())) {
          errors.add(p.position() + prefix + p.message());
        }
        if (rule.record() != null && rule.spec().record() != null) {
          checkDuplicateRecord(group, i, rule, recordedSeries, errors, prefix);
        }
      }
      out.add(group.spec());
    }
  }

  /**
   * Two recording rules with the same name and labels would write the same series, one overwriting
   * the other at every evaluation; promtool only lints this, we refuse the file. (Two alerting
   * rules with the same name and labels are legitimate and allowed.)
   */
  private static void checkDuplicateRecord(
      RawGroup group,
      int index,
      RawRule rule,
      Map<String, String> recordedSeries,
      List<String> errors,
      String prefix) {
    Map<String, String> labels = new TreeMap<>(group.spec().labels());
    labels.putAll(rule.spec().labels());
    String series = rule.spec().record() + labels;
    String here =
        "rule %d of group %s (line %d)"
            .formatted(index + 1, GoQuote.quote(group.spec().name()), rule.record().line());
    String first = recordedSeries.putIfAbsent(series, here);
    if (first != null) {
      errors.add(
          rule.record().line()
              + ":"
              + rule.record().column()
              + ": "
              + prefix
              + "duplicate recording rule: "
              + first
              + " records the same name and labels");
    }
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }

  /** Turns the YAML tree into specs, collecting Go yaml's "unmarshal errors" as it goes. */
  private static final class Decoder extends YamlDecoder {
    List<RawGroup> groups(YamlNode root) {
      List<RawGroup> groups = new ArrayList<>();
      if (root == null) {
        return groups;
      }
      for (YamlNode.Entry e : mapping(root, "rulefmt.RuleGroups")) {
        if (e.key().text().equals("groups")) {
          for (YamlNode item : sequence(e.value())) {
            groups.add(group(item));
          }
        } else {
          unknown(e, "rulefmt.RuleGroups");
        }
      }
      return groups;
    }

    private RawGroup group(YamlNode node) {
      String name = "";
      Duration interval = null;
      Duration queryOffset = null;
      int limit = 0;
      Map<String, String> labels = Map.of();
      List<RawRule> rules = new ArrayList<>();
      for (YamlNode.Entry e : mapping(node, "rulefmt.RuleGroup")) {
        switch (e.key().text()) {
          case "name" -> name = string(e.value());
          case "interval" -> interval = duration(e.value());
          case "query_offset" -> queryOffset = duration(e.value());
          case "limit" -> limit = integer(e.value());
          case "labels" -> labels = stringMap(e.value());
          case "rules" -> {
            for (YamlNode item : sequence(e.value())) {
              rules.add(rule(item));
            }
          }
          default -> unknown(e, "rulefmt.RuleGroup");
        }
      }
      List<RuleSpec> specs = rules.stream().map(RawRule::spec).toList();
      return new RawGroup(
          node, new RuleGroupSpec(name, interval, queryOffset, limit, labels, specs), rules);
    }

    private RawRule rule(YamlNode node) {
      YamlNode.Scalar record = null;
      YamlNode.Scalar alert = null;
      YamlNode.Scalar expr = null;
      Duration forDuration = Duration.ZERO;
      Duration keepFiringFor = Duration.ZERO;
      Map<String, String> labels = Map.of();
      Map<String, String> annotations = Map.of();
      for (YamlNode.Entry e : mapping(node, "rulefmt.RuleNode")) {
        switch (e.key().text()) {
          case "record" -> record = scalar(e.value());
          case "alert" -> alert = scalar(e.value());
          case "expr" -> expr = scalar(e.value());
          case "for" -> forDuration = duration(e.value());
          case "keep_firing_for" -> keepFiringFor = duration(e.value());
          case "labels" -> labels = stringMap(e.value());
          case "annotations" -> annotations = stringMap(e.value());
          default -> unknown(e, "rulefmt.RuleNode");
        }
      }
      RuleSpec spec =
          new RuleSpec(
              text(record),
              text(alert),
              text(expr),
              forDuration,
              keepFiringFor,
              labels,
              annotations);
      return new RawRule(record, alert, expr, spec);
    }

    private static String text(YamlNode.Scalar s) {
      return s == null || s.isNull() || s.text().isEmpty() ? null : s.text();
    }
  }
}
