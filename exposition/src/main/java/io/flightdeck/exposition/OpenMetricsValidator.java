package io.flightdeck.exposition;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricType;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The semantic rules of OpenMetrics 1.0 beyond its grammar: families and label sets are contiguous,
 * metadata precedes samples and is not repeated, counters and buckets are non-negative numbers,
 * histograms are complete and ordered, exemplars sit only on counters and buckets, timestamps of a
 * series do not go back.
 */
final class OpenMetricsValidator {
  private final FamilyTable families;
  private final Set<String> seenFamilies = new HashSet<>();
  private Family open;

  private final Set<Labels> closedGroups = new HashSet<>();
  private final Map<Labels, OptionalLong> lastTimestamps = new HashMap<>();
  private Labels group;
  private final HistogramGroup histogram = new HistogramGroup();

  OpenMetricsValidator(FamilyTable families) {
    this.families = families;
  }

  enum MetadataKind {
    HELP,
    TYPE,
    UNIT
  }

  /** Called before a metadata line changes {@code family}. */
  void beforeMetadata(MetadataKind kind, Family family, String text, LineCursor c)
      throws ExpositionParseException {
    if (family == open) {
      if (family.hasSamples) {
        throw c.error("metadata for metric family \"" + family.name + "\" after its samples");
      }
      boolean repeated =
          switch (kind) {
            case HELP -> family.hasHelp;
            case TYPE -> family.hasType;
            case UNIT -> family.hasUnit;
          };
      if (repeated) {
        throw c.error("repeated " + kind + " for metric family \"" + family.name + "\"");
      }
    } else {
      enterFamily(family, c);
    }
    switch (kind) {
      case TYPE -> checkType(family, MetricTypes.fromOpenMetrics(text), c);
      case UNIT -> checkUnit(family, family.type, text, c);
      case HELP -> {}
    }
  }

  private void checkType(Family family, MetricType type, LineCursor c)
      throws ExpositionParseException {
    for (Family other : families.all()) {
      if (other == family || !seenFamilies.contains(other.name)) {
        continue;
      }
      if (isSuffixed(other.name, family.name, type)
          || isSuffixed(family.name, other.name, other.type)) {
        throw c.error("metric family \"" + family.name + "\" clashes with \"" + other.name + "\"");
      }
    }
    if (family.hasUnit) {
      checkUnit(family, type, family.unit, c);
    }
  }

  /** Whether {@code name} is {@code base} plus one of the suffixes of {@code type}. */
  private boolean isSuffixed(String name, String base, MetricType type) {
    for (String suffix : families.suffixes(type)) {
      if (name.equals(base + suffix)) {
        return true;
      }
    }
    return false;
  }

  private static void checkUnit(Family family, MetricType type, String unit, LineCursor c)
      throws ExpositionParseException {
    if (unit.isEmpty()) {
      return;
    }
    if (type == MetricType.INFO || type == MetricType.STATESET) {
      throw c.error(
          "metric family \"" + family.name + "\" of type " + type.wireName() + " has a unit");
    }
    if (!family.name.endsWith("_" + unit)) {
      throw c.error(
          "metric family \"" + family.name + "\" does not end with its unit \"_" + unit + "\"");
    }
  }

  void onSample(
      FamilyTable.Resolution resolution,
      Labels labels,
      double value,
      OptionalLong timestamp,
      boolean hasExemplar,
      LineCursor c)
      throws ExpositionParseException {
    Family family = resolution.family();
    if (family != open) {
      enterFamily(family, c);
    }
    MetricType type = family.type;
    String suffix = resolution.suffix();
    String name = labels.metricName();
    if (suffix.isEmpty() && !families.allowsBareName(type)) {
      throw c.error(
          "metric name \""
              + name
              + "\" lacks a suffix of "
              + type.wireName()
              + " \""
              + family.name
              + "\"");
    }
    if (hasExemplar && !allowsExemplar(type, suffix)) {
      throw c.error("exemplar not allowed on \"" + name + "\"");
    }
    Labels.Builder key = labels.toBuilder().remove(Labels.METRIC_NAME);
    boolean bucket = suffix.equals("_bucket");
    double bound = 0;
    if (bucket) {
      bound = requireNumberLabel(labels, "le", c);
      key.remove("le");
    } else if (type == MetricType.SUMMARY && suffix.isEmpty()) {
      double quantile = requireNumberLabel(labels, "quantile", c);
      if (!(quantile >= 0 && quantile <= 1)) {
        throw c.error("quantile " + quantile + " outside [0, 1]");
      }
      key.remove("quantile");
    }
    checkValue(family, type, suffix, labels, value, c);
    enterGroup(key.build(), c);
    checkTimestamp(labels, timestamp, c);
    if (type == MetricType.HISTOGRAM || type == MetricType.GAUGEHISTOGRAM) {
      histogram.add(suffix, bound, value, c);
    }
  }

  private static boolean allowsExemplar(MetricType type, String suffix) {
    return switch (type) {
      case COUNTER -> suffix.equals("_total");
      case HISTOGRAM, GAUGEHISTOGRAM -> suffix.equals("_bucket");
      default -> false;
    };
  }

  private static double requireNumberLabel(Labels labels, String label, LineCursor c)
      throws ExpositionParseException {
    String text = labels.get(label);
    Double number = text == null ? null : Numbers.parseValue(text);
    if (number == null || number.isNaN()) {
      throw c.error(
          "\""
              + labels.metricName()
              + "\" needs a numeric \""
              + label
              + "\" label, got "
              + (text == null ? "none" : "\"" + text + "\""));
    }
    return number;
  }

  private static void checkValue(
      Family family, MetricType type, String suffix, Labels labels, double value, LineCursor c)
      throws ExpositionParseException {
    boolean nonNegative =
        switch (type) {
          case COUNTER -> suffix.equals("_total");
          case HISTOGRAM -> suffix.equals("_bucket") || suffix.equals("_count");
          case GAUGEHISTOGRAM -> suffix.equals("_bucket") || suffix.equals("_gcount");
          case SUMMARY -> !suffix.equals("_created");
          default -> false;
        };
    boolean notNaN = nonNegative && !(type == MetricType.SUMMARY && suffix.isEmpty());
    notNaN |= suffix.equals("_sum") || suffix.equals("_gsum");
    if (notNaN && Double.isNaN(value)) {
      throw c.error("\"" + labels.metricName() + "\" must not be NaN");
    }
    if (nonNegative && value < 0) {
      throw c.error("\"" + labels.metricName() + "\" must not be negative, got " + value);
    }
    if (type == MetricType.STATESET) {
      if (!labels.has(family.name)) {
        throw c.error("stateset sample lacks its label \"" + family.name + "\"");
      }
      if (value != 0 && value != 1) {
        throw c.error("stateset value must be 0 or 1, got " + value);
      }
    }
    if (type == MetricType.INFO && value != 1) {
      throw c.error("info value must be 1, got " + value);
    }
  }

  private void checkTimestamp(Labels series, OptionalLong timestamp, LineCursor c)
      throws ExpositionParseException {
    OptionalLong previous = lastTimestamps.put(series, timestamp);
    if (previous == null) {
      return;
    }
    if (previous.isEmpty() || timestamp.isEmpty()) {
      throw c.error("repeated series " + series + " without timestamps");
    }
    if (timestamp.getAsLong() < previous.getAsLong()) {
      throw c.error("timestamp of series " + series + " goes backwards");
    }
  }

  private void enterFamily(Family family, LineCursor c) throws ExpositionParseException {
    finishFamily(c);
    if (!seenFamilies.add(family.name)) {
      throw c.error("metric family \"" + family.name + "\" appears in more than one place");
    }
    open = family;
  }

  private void enterGroup(Labels key, LineCursor c) throws ExpositionParseException {
    if (key.equals(group)) {
      return;
    }
    finishGroup(c);
    if (!closedGroups.add(key)) {
      throw c.error("samples of " + open.name + key + " are not contiguous");
    }
    group = key;
  }

  private void finishGroup(LineCursor c) throws ExpositionParseException {
    if (group != null && open != null) {
      histogram.finish(open.type, open.name + group, c);
    }
    histogram.reset();
    lastTimestamps.clear();
    group = null;
  }

  private void finishFamily(LineCursor c) throws ExpositionParseException {
    finishGroup(c);
    closedGroups.clear();
    open = null;
  }

  /** Called at {@code # EOF}. */
  void finish(LineCursor c) throws ExpositionParseException {
    finishFamily(c);
  }
}
