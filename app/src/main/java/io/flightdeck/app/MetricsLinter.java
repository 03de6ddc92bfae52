package io.flightdeck.app;

import io.flightdeck.exposition.ExpositionFormat;
import io.flightdeck.exposition.ExpositionParseException;
import io.flightdeck.exposition.ExpositionParser;
import io.flightdeck.exposition.ParsedSample;
import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The checks of Prometheus's promlint (client_golang {@code testutil/promlint}), with its messages,
 * over one exposition body; plus duplicate HELP and TYPE lines, which our parser tolerates but
 * promtool's rejects.
 */
final class MetricsLinter {
  /** One finding, printed as {@code metric text} like promtool. */
  record Problem(String metric, String text) {
    @Override
    public String toString() {
      return metric + " " + text;
    }
  }

  private static final Pattern CAMEL_CASE = Pattern.compile("[a-z][A-Z]");
  private static final Map<String, String> BASE_UNITS = baseUnits();
  private static final List<String> UNIT_PREFIXES =
      List.of(
          "pico", "nano", "micro", "milli", "centi", "deci", "deca", "hecto", "kilo", "kibi",
          "mega", "mibi", "giga", "gibi", "tera", "tebi", "peta", "pebi");
  private static final List<String> UNIT_ABBREVIATIONS =
      List.of("s", "ms", "us", "ns", "sec", "b", "kb", "mb", "gb", "tb", "pb", "m", "h", "d");

  /** What promlint sees of one family: its type, whether it has help, its metrics' label sets. */
  private static final class Family {
    MetricType type;
    boolean hasHelp;
    final Set<Labels> metrics = new LinkedHashSet<>();
    int duplicates;
  }

  private MetricsLinter() {}

  /**
   * The problems, sorted by metric then text as promlint sorts them.
   *
   * @throws ExpositionParseException at the first line the format does not allow
   */
  static List<Problem> lint(ExpositionFormat format, byte[] body) throws ExpositionParseException {
    ExpositionParser parser = ExpositionParser.create(format, body);
    Map<String, Family> families = new LinkedHashMap<>();
    Set<Labels> seenSeries = new HashSet<>();
    for (ParsedSample sample = parser.next(); sample != null; sample = parser.next()) {
      MetricType type = sample.metadata().type();
      // OpenMetrics names a counter family without the _total its samples carry.
      String name =
          format == ExpositionFormat.OPENMETRICS_1_0_0 && type == MetricType.COUNTER
              ? sample.family() + "_total"
              : sample.family();
      Family family = families.computeIfAbsent(name, n -> new Family());
      family.type = type;
      family.hasHelp = !sample.metadata().help().isEmpty();
      family.metrics.add(metricLabels(sample.labels(), type));
      if (!seenSeries.add(sample.labels())) {
        family.duplicates++;
      }
    }
    List<Problem> problems = new ArrayList<>();
    families.forEach((name, family) -> check(name, family, problems));
    duplicateMetadata(body, problems);
    problems.sort(Comparator.comparing(Problem::metric).thenComparing(Problem::text));
    return problems;
  }

  /**
   * The labels of promlint's "metric": a histogram's buckets and a summary's quantiles are one
   * metric, so their {@code le} and {@code quantile} do not count.
   */
  private static Labels metricLabels(Labels series, MetricType type) {
    Labels.Builder builder = series.toBuilder().remove(Labels.METRIC_NAME);
    if (type == MetricType.HISTOGRAM || type == MetricType.GAUGEHISTOGRAM) {
      builder.remove("le");
    } else if (type == MetricType.SUMMARY) {
      builder.remove("quantile");
    }
    return builder.build();
  }

  private static void check(String name, Family family, List<Problem> problems) {
    List<String> texts = new ArrayList<>();
    if (!family.hasHelp) {
      texts.add("no help text");
    }
    units(name, texts);
    counter(name, family.type, texts);
    histogramSummaryReserved(name, family, texts);
    typeInName(name, family.type, texts);
    if (name.contains(":")) {
      texts.add("metric names should not contain ':'");
    }
    camelCase(name, family, texts);
    String lower = name.toLowerCase(Locale.ROOT);
    for (String abbreviation : UNIT_ABBREVIATIONS) {
      if (containsPart(lower, abbreviation)) {
        texts.add("metric names should not contain abbreviated units");
      }
    }
    for (int i = 0; i < family.duplicates; i++) {
      texts.add("metric not unique");
    }
    texts.forEach(text -> problems.add(new Problem(name, text)));
  }

  private static void units(String name, List<String> texts) {
    for (String part : name.split("_")) {
      String base = BASE_UNITS.get(part);
      for (int i = 0; base == null && i < UNIT_PREFIXES.size(); i++) {
        if (part.startsWith(UNIT_PREFIXES.get(i))) {
          base = BASE_UNITS.get(part.substring(UNIT_PREFIXES.get(i).length()));
        }
      }
      if (base != null) {
        if (!base.equals(part)) {
          texts.add("use base unit \"" + base + "\" instead of \"" + part + "\"");
        }
        return; // promlint looks at the first unit only
      }
    }
  }

  private static void counter(String name, MetricType type, List<String> texts) {
    boolean hasTotal = name.endsWith("_total");
    if (type == MetricType.COUNTER && !hasTotal) {
      texts.add("counter metrics should have \"_total\" suffix");
    } else if (type != MetricType.UNKNOWN && type != MetricType.COUNTER && hasTotal) {
      texts.add("non-counter metrics should not have \"_total\" suffix");
    }
  }

  private static void histogramSummaryReserved(String name, Family family, List<String> texts) {
    MetricType type = family.type;
    if (type == MetricType.UNKNOWN) {
      return;
    }
    boolean histogram = type == MetricType.HISTOGRAM;
    boolean summary = type == MetricType.SUMMARY;
    if (!histogram && name.endsWith("_bucket")) {
      texts.add("non-histogram metrics should not have \"_bucket\" suffix");
    }
    if (!histogram && !summary && name.endsWith("_count")) {
      texts.add("non-histogram and non-summary metrics should not have \"_count\" suffix");
    }
    if (!histogram && !summary && name.endsWith("_sum")) {
      texts.add("non-histogram and non-summary metrics should not have \"_sum\" suffix");
    }
    for (Labels metric : family.metrics) {
      if (!histogram && metric.has("le")) {
        texts.add("non-histogram metrics should not have \"le\" label");
      }
      if (!summary && metric.has("quantile")) {
        texts.add("non-summary metrics should not have \"quantile\" label");
      }
    }
  }

  private static void typeInName(String name, MetricType type, List<String> texts) {
    if (type == MetricType.UNKNOWN) {
      return;
    }
    String typeName = type.name().toLowerCase(Locale.ROOT);
    if (containsPart(name.toLowerCase(Locale.ROOT), typeName)) {
      texts.add("metric name should not include type '" + typeName + "'");
    }
  }

  private static void camelCase(String name, Family family, List<String> texts) {
    if (CAMEL_CASE.matcher(name).find()) {
      texts.add("metric names should be written in 'snake_case' not 'camelCase'");
    }
    for (Labels metric : family.metrics) {
      metric.forEach(
          (label, value) -> {
            if (CAMEL_CASE.matcher(label).find()) {
              texts.add("label names should be written in 'snake_case' not 'camelCase'");
            }
          });
    }
  }

  /** Whether {@code part} is a whole {@code _}-separated word inside or at the end of the name. */
  private static boolean containsPart(String name, String part) {
    return name.contains("_" + part + "_") || name.endsWith("_" + part);
  }

  /** A second HELP or TYPE line for one family, which Prometheus's text parser refuses. */
  private static void duplicateMetadata(byte[] body, List<Problem> problems) {
    Set<String> seen = new HashSet<>();
    String[] lines = new String(body, StandardCharsets.UTF_8).split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String[] words = lines[i].trim().split("[ \t]+", 4);
      if (words.length >= 3
          && words[0].equals("#")
          && (words[1].equals("HELP") || words[1].equals("TYPE"))
          && !seen.add(words[1] + " " + words[2])) {
        problems.add(
            new Problem(words[2], "duplicate " + words[1] + " line [line=" + (i + 1) + "]"));
      }
    }
  }

  private static Map<String, String> baseUnits() {
    Map<String, String> units = new LinkedHashMap<>();
    for (String base :
        List.of(
            "amperes", "bytes", "celsius", "grams", "joules", "kelvin", "meters", "metres",
            "seconds", "volts")) {
      units.put(base, base);
    }
    for (String time : List.of("minutes", "hours", "days", "weeks")) {
      units.put(time, "seconds");
    }
    units.put("kelvins", "kelvin");
    units.put("fahrenheit", "celsius");
    units.put("rankine", "celsius");
    for (String length : List.of("inches", "yards", "miles")) {
      units.put(length, "meters");
    }
    units.put("bits", "bytes");
    units.put("calories", "joules");
    units.put("pounds", "grams");
    units.put("ounces", "grams");
    return Map.copyOf(units);
  }
}
