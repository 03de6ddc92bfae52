package io.flightdeck.promqltest;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.promql.parser.AggregateExpr;
import io.flightdeck.promql.parser.BinaryExpr;
import io.flightdeck.promql.parser.Call;
import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.MatrixSelector;
import io.flightdeck.promql.parser.NumberLiteral;
import io.flightdeck.promql.parser.ParenExpr;
import io.flightdeck.promql.parser.StringLiteral;
import io.flightdeck.promql.parser.SubqueryExpr;
import io.flightdeck.promql.parser.UnaryExpr;
import io.flightdeck.promql.parser.VectorSelector;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The series a script loaded in a form we cannot store faithfully yet: native histograms (left out)
 * and series with start timestamps (stored without them). An eval whose selectors would read one of
 * them is skipped rather than failed against data that is not what the script loaded.
 */
final class UnsupportedSeries {
  static final String HISTOGRAM = "loaded as a native histogram";
  static final String START_TIMESTAMPS =
      "loaded with start timestamps, which storage does not keep";

  private static final String BUCKET = "_bucket";
  private static final String COUNT = "_count";
  private static final String SUM = "_sum";
  private static final String LE = "le";

  /** Why each series is not as loaded. */
  private final Map<Labels, String> series = new LinkedHashMap<>();

  void add(Labels labels, String reason) {
    series.putIfAbsent(labels, reason);
  }

  void clear() {
    series.clear();
  }

  /**
   * Adds the series {@code load_with_nhcb} derives from classic histograms: {@code X_bucket} (with
   * a numeric {@code le}), {@code X_count} and {@code X_sum} become {@code X} without {@code le}.
   */
  void addConvertedClassicHistograms(Collection<Labels> loaded) {
    for (Labels labels : loaded) {
      String name = labels.metricName();
      String base = null;
      if (name.endsWith(BUCKET) && isNumber(labels.get(LE))) {
        base = name.substring(0, name.length() - BUCKET.length());
      } else if (name.endsWith(COUNT)) {
        base = name.substring(0, name.length() - COUNT.length());
      } else if (name.endsWith(SUM)) {
        base = name.substring(0, name.length() - SUM.length());
      }
      if (base != null) {
        add(labels.toBuilder().set(Labels.METRIC_NAME, base).remove(LE).build(), HISTOGRAM);
      }
    }
  }

  /** Why the query cannot be checked: {@code reads <series>, <reason>}; empty if it can. */
  Optional<String> readBy(Expr expr) {
    if (series.isEmpty()) {
      return Optional.empty();
    }
    List<VectorSelector> selectors = new ArrayList<>();
    collectSelectors(expr, selectors);
    for (VectorSelector selector : selectors) {
      for (Map.Entry<Labels, String> s : series.entrySet()) {
        if (selector.matchers().stream().allMatch(m -> matches(m, s.getKey()))) {
          return Optional.of("reads " + s.getKey() + ", " + s.getValue());
        }
      }
    }
    return Optional.empty();
  }

  private static boolean matches(Matcher matcher, Labels labels) {
    return matcher.matches(labels.get(matcher.name()));
  }

  private static void collectSelectors(Expr expr, List<VectorSelector> out) {
    switch (expr) {
      case VectorSelector vs -> out.add(vs);
      case MatrixSelector ms -> out.add(ms.selector());
      case SubqueryExpr sq -> collectSelectors(sq.expr(), out);
      case AggregateExpr ae -> {
        collectSelectors(ae.expr(), out);
        if (ae.param() != null) {
          collectSelectors(ae.param(), out);
        }
      }
      case BinaryExpr be -> {
        collectSelectors(be.lhs(), out);
        collectSelectors(be.rhs(), out);
      }
      case Call call -> call.args().forEach(arg -> collectSelectors(arg, out));
      case ParenExpr pe -> collectSelectors(pe.expr(), out);
      case UnaryExpr ue -> collectSelectors(ue.expr(), out);
      case NumberLiteral n -> {}
      case StringLiteral s -> {}
    }
  }

  /** Whether Go's ParseFloat reads a number other than NaN, as the NHCB conversion requires. */
  private static boolean isNumber(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT).replaceFirst("^[+-]", "");
    if (t.equals("inf") || t.equals("infinity")) {
      return true;
    }
    try {
      return !Double.isNaN(Double.parseDouble(text)) && !t.contains("nan");
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
