package io.flightdeck.remote;

import io.flightdeck.model.GoQuote;
import io.flightdeck.model.LabelNameSyntax;
import io.flightdeck.model.Labels;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Judges a written series' labels as Prometheus 3's remote-write receiver does: a non-empty metric
 * name, no empty label name, valid UTF-8, no name twice; unsorted labels are sorted, not refused.
 * The problem is worded as Prometheus words it, naming the series in its label notation.
 */
final class SeriesLabelsCheck {
  private SeriesLabelsCheck() {}

  /**
   * The problem with {@code pairs} (name, value, name, value...), or null when they are valid.
   *
   * @param validUtf8 false when the decoder replaced bytes that were not UTF-8
   */
  static String problem(List<String> pairs, boolean validUtf8) {
    boolean hasName = false;
    boolean emptyName = false;
    for (int i = 0; i < pairs.size(); i += 2) {
      emptyName |= pairs.get(i).isEmpty();
      hasName |= pairs.get(i).equals(Labels.METRIC_NAME) && !pairs.get(i + 1).isEmpty();
    }
    List<String[]> sorted = sorted(pairs);
    if (!hasName || emptyName || !validUtf8) {
      return "invalid metric name or labels, got " + notation(sorted);
    }
    for (int i = 1; i < sorted.size(); i++) {
      if (sorted.get(i)[0].equals(sorted.get(i - 1)[0])) {
        return "invalid labels for series, labels "
            + notation(sorted)
            + ", duplicated label "
            + sorted.get(i)[0];
      }
    }
    return null;
  }

  private static List<String[]> sorted(List<String> pairs) {
    List<String[]> out = new ArrayList<>(pairs.size() / 2);
    for (int i = 0; i < pairs.size(); i += 2) {
      out.add(new String[] {pairs.get(i), pairs.get(i + 1)});
    }
    out.sort(Comparator.comparing(p -> p[0]));
    return out;
  }

  /** Prometheus's {@code labels.String()}: names quoted only where the legacy syntax needs it. */
  private static String notation(List<String[]> sorted) {
    StringBuilder sb = new StringBuilder("{");
    for (String[] pair : sorted) {
      if (sb.length() > 1) {
        sb.append(", ");
      }
      sb.append(LabelNameSyntax.isLegacy(pair[0]) ? pair[0] : GoQuote.quote(pair[0]));
      sb.append('=').append(GoQuote.quote(pair[1]));
    }
    return sb.append('}').toString();
  }
}
