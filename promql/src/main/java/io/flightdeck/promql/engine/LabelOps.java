package io.flightdeck.promql.engine;

import io.flightdeck.model.LabelNameSyntax;
import io.flightdeck.model.Labels;
import io.flightdeck.promql.parser.GoFormat;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Label-set operations the evaluator needs: projections, match signatures, Prometheus's notation.
 */
final class LabelOps {
  private static final char SEPARATOR = '\u00ff';

  private LabelOps() {}

  /**
   * The labels Prometheus drops with the name: {@code __name__}, {@code __type__}, {@code
   * __unit__}.
   */
  static final List<String> METADATA = List.of(Labels.METRIC_NAME, "__type__", "__unit__");

  /** The label set without its metric name and the type and unit labels that describe it. */
  static Labels withoutMetadata(Labels labels) {
    return filter(labels, name -> !isMetadata(name));
  }

  /** All three metadata names are eight characters starting with two underscores. */
  private static boolean isMetadata(String name) {
    return name.length() == 8
        && name.charAt(0) == '_'
        && name.charAt(1) == '_'
        && METADATA.contains(name);
  }

  /** Whether both label sets have the same name, type and unit (each possibly absent). */
  static boolean sameMetadata(Labels a, Labels b) {
    for (String name : METADATA) {
      if (!Objects.equals(a.get(name), b.get(name))) {
        return false;
      }
    }
    return true;
  }

  /** Only the labels named in {@code names}. */
  static Labels keep(Labels labels, Collection<String> names) {
    return filter(labels, names::contains);
  }

  /** All labels except those named in {@code names}. */
  static Labels drop(Labels labels, Collection<String> names) {
    return filter(labels, name -> !names.contains(name));
  }

  /**
   * The labels whose names {@code accepts} accepts. Called per series per query, so it returns the
   * input untouched when nothing goes, without building anything.
   */
  private static Labels filter(Labels labels, Predicate<String> accepts) {
    int size = labels.size();
    int kept = 0;
    boolean[] keep = new boolean[size];
    for (int i = 0; i < size; i++) {
      keep[i] = accepts.test(labels.name(i));
      if (keep[i]) {
        kept++;
      }
    }
    if (kept == size) {
      return labels;
    }
    String[] pairs = new String[2 * kept];
    int j = 0;
    for (int i = 0; i < size; i++) {
      if (keep[i]) {
        pairs[j++] = labels.name(i);
        pairs[j++] = labels.value(i);
      }
    }
    return Labels.fromSortedPairs(pairs);
  }

  /**
   * A key equal for two label sets exactly when they agree on the given labels ({@code on}), or on
   * every label but those and {@code __name__} ({@code ignoring}, {@code without}).
   */
  static String signature(Labels labels, Collection<String> names, boolean on) {
    if (on) {
      // Look the few listed names up rather than walk every label: grouping by one or two labels
      // of wide series (DCGM's have ten) is the common case.
      if (names.size() == 1) {
        String value = labels.get(names.iterator().next());
        return value == null ? "" : value;
      }
      StringBuilder sb = new StringBuilder();
      for (String name : names) {
        String value = labels.get(name);
        if (value != null) {
          sb.append(name).append(SEPARATOR).append(value).append(SEPARATOR);
        }
      }
      return sb.toString();
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < labels.size(); i++) {
      String name = labels.name(i);
      boolean listed = names.contains(name);
      boolean include = on ? listed : !listed && !name.equals(Labels.METRIC_NAME);
      if (include) {
        sb.append(name).append(SEPARATOR).append(labels.value(i)).append(SEPARATOR);
      }
    }
    return sb.toString();
  }

  /** Prometheus's {@code labels.String()}: {@code {__name__="up", job="x"}}. */
  static String format(Labels labels) {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < labels.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      String name = labels.name(i);
      sb.append(LabelNameSyntax.isLegacy(name) ? name : GoFormat.quote(name));
      sb.append('=').append(GoFormat.quote(labels.value(i)));
    }
    return sb.append('}').toString();
  }
}
