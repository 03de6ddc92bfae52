package io.flightdeck.rules;

import com.google.re2j.Pattern;
import io.flightdeck.model.GoQuote;
import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.promql.PromQL;
import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.ParseException;
import io.flightdeck.promql.parser.VectorSelector;
import java.util.ArrayList;
import java.util.List;

/**
 * promtool's series notation: a metric ({@code up{job="a"}}) and values in expanding notation,
 * {@code 1+2x3} (1 3 5 7), {@code 5-1x2} (5 4 3), {@code 7x2} (7 7 7), {@code _} (no sample),
 * {@code _x3} (three missing), {@code stale} (a staleness marker).
 */
final class SeriesDescription {
  private static final String NUMBER =
      "[+-]?(?:(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?|Inf|inf|NaN|nan)";
  private static final String STEP = "(?:(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?|Inf)";
  private static final Pattern EXPANDING =
      Pattern.compile("(" + NUMBER + ")(?:([+-])(" + STEP + "))?x(\\d+)");
  private static final Pattern SINGLE = Pattern.compile(NUMBER);
  private static final Pattern MISSING = Pattern.compile("_(?:x(\\d+))?");
  private static final Pattern WHITESPACE = Pattern.compile("\\s+");

  private SeriesDescription() {}

  /** The values in order; null marks a missing sample. */
  static List<Double> values(String text) {
    List<Double> out = new ArrayList<>();
    for (String token : WHITESPACE.split(text.trim())) {
      if (token.isEmpty()) {
        continue;
      }
      com.google.re2j.Matcher m;
      if (token.equals("stale")) {
        out.add(StaleMarker.VALUE);
      } else if ((m = MISSING.matcher(token)).matches()) {
        int n = m.group(1) == null ? 1 : Integer.parseInt(m.group(1));
        for (int i = 0; i < n; i++) {
          out.add(null);
        }
      } else if (SINGLE.matcher(token).matches()) {
        out.add(number(token));
      } else if ((m = EXPANDING.matcher(token)).matches()) {
        double value = number(m.group(1));
        double step = m.group(3) == null ? 0 : number(m.group(3));
        if ("-".equals(m.group(2))) {
          step = -step;
        }
        int times = Integer.parseInt(m.group(4));
        for (int i = 0; i <= times; i++) {
          out.add(value);
          value += step;
        }
      } else {
        throw new IllegalArgumentException(
            "invalid value in series values: " + GoQuote.quote(token));
      }
    }
    return out;
  }

  private static double number(String s) {
    String t = s.replace("Inf", "Infinity").replace("inf", "Infinity").replace("nan", "NaN");
    return Double.parseDouble(t);
  }

  /**
   * The labels of a series written as a selector with equality matchers only.
   *
   * @throws IllegalArgumentException with the parser's message
   */
  static Labels metric(String text) {
    if (text.isBlank() || WHITESPACE.matcher(text).replaceAll("").equals("{}")) {
      return Labels.EMPTY;
    }
    Expr expr;
    try {
      expr = PromQL.parse(text);
    } catch (ParseException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
    if (!(expr instanceof VectorSelector vs)) {
      throw new IllegalArgumentException("not a series: " + text);
    }
    Labels.Builder b = Labels.builder();
    if (vs.name() != null && !vs.name().isEmpty()) {
      b.set(Labels.METRIC_NAME, vs.name());
    }
    for (Matcher m : vs.matchers()) {
      if (m.type() != Matcher.Type.EQUAL) {
        throw new IllegalArgumentException("only equality matchers describe a series: " + text);
      }
      b.set(m.name(), m.value());
    }
    return b.build();
  }
}
