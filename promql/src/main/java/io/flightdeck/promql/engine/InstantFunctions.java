package io.flightdeck.promql.engine;

import io.flightdeck.model.Labels;
import io.flightdeck.promql.parser.Call;
import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.GoFormat;
import io.flightdeck.promql.parser.ValueType;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import java.util.function.ToDoubleFunction;

/** Functions of instant vectors and scalars, applied step by step. */
final class InstantFunctions {
  private static final Map<String, DoubleUnaryOperator> ELEMENTWISE =
      Map.ofEntries(
          Map.entry("abs", Math::abs),
          Map.entry("ceil", Math::ceil),
          Map.entry("floor", Math::floor),
          Map.entry("exp", Math::exp),
          Map.entry("sqrt", Math::sqrt),
          Map.entry("ln", Math::log),
          Map.entry("log2", InstantFunctions::log2),
          Map.entry("log10", Math::log10),
          Map.entry("sin", Math::sin),
          Map.entry("cos", Math::cos),
          Map.entry("tan", Math::tan),
          Map.entry("asin", Math::asin),
          Map.entry("acos", Math::acos),
          Map.entry("atan", Math::atan),
          Map.entry("sinh", Math::sinh),
          Map.entry("cosh", Math::cosh),
          Map.entry("tanh", Math::tanh),
          Map.entry("asinh", InstantFunctions::asinh),
          Map.entry("acosh", InstantFunctions::acosh),
          Map.entry("atanh", InstantFunctions::atanh),
          Map.entry("rad", v -> v * Math.PI / 180),
          Map.entry("deg", v -> v * 180 / Math.PI),
          Map.entry("sgn", v -> v < 0 ? -1 : v > 0 ? 1 : v));

  private static final Map<String, ToDoubleFunction<ZonedDateTime>> DATES =
      Map.of(
          "day_of_month", ZonedDateTime::getDayOfMonth,
          "day_of_week", t -> t.getDayOfWeek().getValue() % 7,
          "day_of_year", ZonedDateTime::getDayOfYear,
          "days_in_month", t -> LocalDate.from(t).lengthOfMonth(),
          "hour", ZonedDateTime::getHour,
          "minute", ZonedDateTime::getMinute,
          "month", ZonedDateTime::getMonthValue,
          "year", ZonedDateTime::getYear);

  private final Evaluator ev;
  private final Call call;
  private final String name;

  InstantFunctions(Evaluator ev, Call call) {
    this.ev = ev;
    this.call = call;
    this.name = call.function().name();
  }

  static boolean isSort(String name) {
    return name.equals("sort")
        || name.equals("sort_desc")
        || name.equals("sort_by_label")
        || name.equals("sort_by_label_desc");
  }

  List<EvalSeries> eval() {
    List<List<EvalSeries>> inputs = new ArrayList<>();
    for (Expr arg : call.args()) {
      inputs.add(arg.type() == ValueType.STRING ? List.of() : ev.eval(arg));
    }
    Evaluator.StepFunction fn = stepFunction();
    return ev.stepwise(inputs, fn);
  }

  private Evaluator.StepFunction stepFunction() {
    DoubleUnaryOperator elementwise = ELEMENTWISE.get(name);
    if (elementwise != null) {
      return (v, ts) -> map(v.get(0), elementwise);
    }
    ToDoubleFunction<ZonedDateTime> date = DATES.get(name);
    if (date != null) {
      return (v, ts) -> dates(v, ts, date);
    }
    return switch (name) {
      case "time" -> (v, ts) -> scalar(ts / 1000.0);
      case "pi" -> (v, ts) -> scalar(Math.PI);
      case "vector" ->
          (v, ts) -> List.of(new EvalSample(Labels.EMPTY, v.get(0).get(0).value(), false));
      case "scalar" -> (v, ts) -> scalar(single(v.get(0)));
      case "min_of" -> (v, ts) -> scalar(Math.min(value(v, 0), value(v, 1)));
      case "max_of" -> (v, ts) -> scalar(Math.max(value(v, 0), value(v, 1)));
      case "clamp" -> (v, ts) -> clamp(v.get(0), value(v, 1), value(v, 2));
      case "clamp_min" -> (v, ts) -> clamp(v.get(0), value(v, 1), Double.POSITIVE_INFINITY);
      case "clamp_max" -> (v, ts) -> clamp(v.get(0), Double.NEGATIVE_INFINITY, value(v, 1));
      case "round" -> (v, ts) -> round(v.get(0), v.size() > 1 ? value(v, 1) : 1);
      case "timestamp" -> (v, ts) -> map(v.get(0), x -> ts / 1000.0);
      case "absent" -> {
        Labels labels = CallEvaluator.absentLabels(CallEvaluator.unwrap(call.args().get(0)));
        yield (v, ts) -> v.get(0).isEmpty() ? List.of(new EvalSample(labels, 1, false)) : List.of();
      }
      case "sort" -> (v, ts) -> sortByValue(v.get(0), false);
      case "sort_desc" -> (v, ts) -> sortByValue(v.get(0), true);
      case "sort_by_label" -> (v, ts) -> sortByLabel(v.get(0), false);
      case "sort_by_label_desc" -> (v, ts) -> sortByLabel(v.get(0), true);
      case "histogram_quantile" -> (v, ts) -> histogramQuantile(v, ts);
      case "histogram_fraction" -> (v, ts) -> histogramFraction(v);
      case "histogram_quantiles" -> (v, ts) -> histogramQuantiles(v);
      // Only native histograms carry these; float samples give nothing, as in Prometheus.
      case "histogram_count",
          "histogram_sum",
          "histogram_avg",
          "histogram_stddev",
          "histogram_stdvar",
          "start_timestamp" ->
          (v, ts) -> List.of();
      default ->
          throw new QueryException(
              QueryException.Kind.EXECUTION,
              "function " + GoFormat.quote(name) + " is not supported");
    };
  }

  private static double value(List<List<EvalSample>> v, int arg) {
    return v.get(arg).get(0).value();
  }

  private static List<EvalSample> scalar(double value) {
    return List.of(new EvalSample(Labels.EMPTY, value, false));
  }

  private static double single(List<EvalSample> vector) {
    return vector.size() == 1 ? vector.get(0).value() : Double.NaN;
  }

  private EvalSample renamed(EvalSample s, double value) {
    Labels labels = ev.ctx.delayedNameRemoval ? s.labels() : LabelOps.withoutMetadata(s.labels());
    return new EvalSample(labels, value, true);
  }

  private List<EvalSample> map(List<EvalSample> vector, DoubleUnaryOperator f) {
    List<EvalSample> out = new ArrayList<>(vector.size());
    for (EvalSample s : vector) {
      out.add(renamed(s, f.applyAsDouble(s.value())));
    }
    return out;
  }

  private List<EvalSample> clamp(List<EvalSample> vector, double min, double max) {
    if (max < min) {
      return List.of();
    }
    return map(vector, x -> Math.max(min, Math.min(max, x)));
  }

  private List<EvalSample> round(List<EvalSample> vector, double toNearest) {
    double inverse = 1.0 / toNearest;
    return map(vector, x -> Math.floor(x * inverse + 0.5) / inverse);
  }

  private List<EvalSample> dates(
      List<List<EvalSample>> v, long ts, ToDoubleFunction<ZonedDateTime> f) {
    if (v.isEmpty()) {
      return scalar(f.applyAsDouble(utc(ts / 1000)));
    }
    List<EvalSample> out = new ArrayList<>();
    for (EvalSample s : v.get(0)) {
      double seconds = s.value();
      if (Double.isNaN(seconds) || Double.isInfinite(seconds)) {
        out.add(renamed(s, Double.NaN));
        continue;
      }
      out.add(renamed(s, f.applyAsDouble(utc((long) seconds))));
    }
    return out;
  }

  private static ZonedDateTime utc(long epochSecond) {
    return Instant.ofEpochSecond(epochSecond).atZone(ZoneOffset.UTC);
  }

  private static final Comparator<EvalSample> ASCENDING_NAN_LAST =
      (a, b) -> {
        double x = a.value();
        double y = b.value();
        if (Double.isNaN(x) || Double.isNaN(y)) {
          return Double.isNaN(x) ? (Double.isNaN(y) ? 0 : 1) : -1;
        }
        return Double.compare(x, y) == 0 ? 0 : (x < y ? -1 : 1);
      };

  private static List<EvalSample> sortByValue(List<EvalSample> vector, boolean descending) {
    List<EvalSample> out = new ArrayList<>(vector);
    Comparator<EvalSample> order =
        descending
            ? (a, b) -> {
              double x = a.value();
              double y = b.value();
              if (Double.isNaN(x) || Double.isNaN(y)) {
                return Double.isNaN(x) ? (Double.isNaN(y) ? 0 : 1) : -1;
              }
              return Double.compare(y, x) == 0 ? 0 : (x > y ? -1 : 1);
            }
            : ASCENDING_NAN_LAST;
    out.sort(order);
    return out;
  }

  private List<EvalSample> sortByLabel(List<EvalSample> vector, boolean descending) {
    List<String> labels = new ArrayList<>();
    for (int i = 1; i < call.args().size(); i++) {
      labels.add(CallEvaluator.stringArg(call.args().get(i)));
    }
    Comparator<EvalSample> order =
        (a, b) -> {
          for (String label : labels) {
            String x = a.labels().get(label);
            String y = b.labels().get(label);
            if (x.equals(y)) {
              continue;
            }
            return NaturalOrder.less(x, y) ? -1 : 1;
          }
          return a.labels().compareTo(b.labels());
        };
    List<EvalSample> out = new ArrayList<>(vector);
    out.sort(descending ? order.reversed() : order);
    return out;
  }

  private Map<Labels, ClassicHistograms.Buckets> bucketsOf(
      List<EvalSample> vector, Expr arg, Map<Labels, Labels> outputLabels) {
    Map<Labels, ClassicHistograms.Buckets> groups = new LinkedHashMap<>();
    for (EvalSample s : vector) {
      String le = s.labels().get("le");
      double bound;
      try {
        bound = GoFloats.parse(le);
      } catch (NumberFormatException e) {
        String metric = ev.ctx.delayedNameRemoval ? s.labels().metricName() : "";
        String text =
            "bucket label \"le\" is missing or has a malformed value of " + GoFormat.quote(le);
        if (metric != null && !metric.isEmpty()) {
          text += " for metric name " + GoFormat.quote(metric);
        }
        ev.ctx.annotations.warn(text, arg.position());
        continue;
      }
      Labels withoutLe = LabelOps.drop(s.labels(), List.of("le"));
      groups.computeIfAbsent(withoutLe, k -> new ClassicHistograms.Buckets()).add(bound, s.value());
      outputLabels.putIfAbsent(
          withoutLe, ev.ctx.delayedNameRemoval ? withoutLe : LabelOps.withoutMetadata(withoutLe));
    }
    return groups;
  }

  private List<EvalSample> histogramQuantile(List<List<EvalSample>> v, long ts) {
    if (v.get(0).isEmpty()) {
      return List.of();
    }
    double q = value(v, 0);
    if (Double.isNaN(q) || q < 0 || q > 1) {
      ev.ctx.annotations.warn(
          "quantile value should be between 0 and 1, got " + GoFormat.g(q),
          call.args().get(0).position());
    }
    Map<Labels, Labels> outputLabels = new LinkedHashMap<>();
    Map<Labels, ClassicHistograms.Buckets> groups =
        bucketsOf(v.get(1), call.args().get(1), outputLabels);
    List<EvalSample> out = new ArrayList<>();
    groups.forEach(
        (key, buckets) -> {
          double result = ClassicHistograms.quantile(q, buckets);
          if (buckets.forcedMonotonic) {
            infoForcedMonotonicity(key, call.args().get(1));
          }
          out.add(new EvalSample(outputLabels.get(key), result, true));
        });
    return out;
  }

  private List<EvalSample> histogramQuantiles(List<List<EvalSample>> v) {
    String quantileLabel = CallEvaluator.stringArg(call.args().get(1));
    List<Double> qs = new ArrayList<>();
    for (int i = 2; i < v.size(); i++) {
      double q = value(v, i);
      if (Double.isNaN(q) || q < 0 || q > 1) {
        ev.ctx.annotations.warn(
            "quantile value should be between 0 and 1, got " + GoFormat.g(q),
            call.args().get(i).position());
      }
      qs.add(q);
    }
    Map<Labels, Labels> outputLabels = new LinkedHashMap<>();
    Map<Labels, ClassicHistograms.Buckets> groups =
        bucketsOf(v.get(0), call.args().get(0), outputLabels);
    List<EvalSample> out = new ArrayList<>();
    for (double q : qs) {
      groups.forEach(
          (key, buckets) -> {
            ClassicHistograms.Buckets copy = buckets.copy();
            double result = ClassicHistograms.quantile(q, copy);
            if (copy.forcedMonotonic) {
              infoForcedMonotonicity(key, call.args().get(0));
            }
            Labels labels =
                outputLabels.get(key).toBuilder().set(quantileLabel, openMetricsFloat(q)).build();
            out.add(new EvalSample(labels, result, true));
          });
    }
    return out;
  }

  private void infoForcedMonotonicity(Labels series, Expr arg) {
    String metric = ev.ctx.delayedNameRemoval ? series.metricName() : "";
    String text =
        "input to histogram_quantile needed to be fixed for monotonicity (see"
            + " https://prometheus.io/docs/prometheus/latest/querying/functions/#histogram_quantile)";
    if (metric != null && !metric.isEmpty()) {
      text += " for metric name " + GoFormat.quote(metric);
    }
    ev.ctx.annotations.info(text, arg.position());
  }

  /** How OpenMetrics writes a float: always with a decimal point or exponent ({@code 1.0}). */
  static String openMetricsFloat(double f) {
    if (Double.isNaN(f)) {
      return "NaN";
    }
    if (Double.isInfinite(f)) {
      return f > 0 ? "+Inf" : "-Inf";
    }
    String s = GoFormat.g(f);
    return s.contains(".") || s.contains("e") ? s : s + ".0";
  }

  private List<EvalSample> histogramFraction(List<List<EvalSample>> v) {
    if (v.get(0).isEmpty() || v.get(1).isEmpty()) {
      return List.of();
    }
    double lower = value(v, 0);
    double upper = value(v, 1);
    Map<Labels, Labels> outputLabels = new LinkedHashMap<>();
    Map<Labels, ClassicHistograms.Buckets> groups =
        bucketsOf(v.get(2), call.args().get(2), outputLabels);
    List<EvalSample> out = new ArrayList<>();
    groups.forEach(
        (key, buckets) ->
            out.add(
                new EvalSample(
                    outputLabels.get(key),
                    ClassicHistograms.fraction(lower, upper, buckets),
                    true)));
    return out;
  }

  // ---- Go's math where Java has no equal ----

  /** Exact for powers of two, like Go's {@code math.Log2}. */
  static double log2(double x) {
    if (x > 0 && !Double.isInfinite(x) && x == Math.scalb(1.0, Math.getExponent(x))) {
      return Math.getExponent(x);
    }
    return Math.log(x) / Math.log(2);
  }

  static double asinh(double x) {
    if (x == 0 || Double.isNaN(x) || Double.isInfinite(x)) {
      return x;
    }
    double a = Math.abs(x);
    double r = a > 1e8 ? Math.log(a) + Math.log(2) : Math.log(a + Math.sqrt(a * a + 1));
    return Math.copySign(r, x);
  }

  static double acosh(double x) {
    if (x < 1 || Double.isNaN(x)) {
      return Double.NaN;
    }
    if (x == 1) {
      return 0;
    }
    return x > 1e8 ? Math.log(x) + Math.log(2) : Math.log(x + Math.sqrt(x * x - 1));
  }

  static double atanh(double x) {
    if (x < -1 || x > 1 || Double.isNaN(x)) {
      return Double.NaN;
    }
    if (x == 1) {
      return Double.POSITIVE_INFINITY;
    }
    if (x == -1) {
      return Double.NEGATIVE_INFINITY;
    }
    if (x == 0) {
      return x;
    }
    return 0.5 * Math.log1p(2 * x / (1 - x));
  }
}
