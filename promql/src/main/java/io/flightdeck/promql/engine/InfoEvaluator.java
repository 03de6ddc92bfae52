package io.flightdeck.promql.engine;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.promql.parser.AggregateExpr;
import io.flightdeck.promql.parser.BinaryExpr;
import io.flightdeck.promql.parser.Call;
import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.MatrixSelector;
import io.flightdeck.promql.parser.ParenExpr;
import io.flightdeck.promql.parser.SubqueryExpr;
import io.flightdeck.promql.parser.UnaryExpr;
import io.flightdeck.promql.parser.VectorSelector;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The experimental {@code info(v, {data matchers})}: adds to each series of {@code v} the data
 * labels of the info series ({@code target_info} unless the matchers name others) that share its
 * identifying labels {@code instance} and {@code job}, as Prometheus's {@code promql/info.go} does.
 * Info series are looked up as of the time the first selector of {@code v} reads (its {@code @} and
 * offset, or those of an enclosing subquery), so the enrichment matches the samples.
 */
final class InfoEvaluator {
  private static final String TARGET_INFO = "target_info";
  private static final List<String> IDENTIFYING = List.of("instance", "job");

  private final Evaluator ev;

  InfoEvaluator(Evaluator ev) {
    this.ev = ev;
  }

  List<EvalSeries> eval(Call call) {
    ReferenceTime reference = referenceTime(call.args().get(0));
    List<EvalSeries> base = ev.eval(call.args().get(0));

    List<Matcher> nameMatchers = new ArrayList<>();
    // Data label matchers by label name, in the order written; __name__ only picks info metrics.
    Map<String, List<Matcher>> dataMatchers = new LinkedHashMap<>();
    if (call.args().size() > 1) {
      VectorSelector selector = (VectorSelector) CallEvaluator.unwrap(call.args().get(1));
      for (Matcher m : selector.matchers()) {
        if (m.name().equals(Labels.METRIC_NAME)) {
          nameMatchers.add(m);
        } else {
          dataMatchers.computeIfAbsent(m.name(), k -> new ArrayList<>()).add(m);
        }
      }
    }
    List<Matcher> effectiveNames = effectiveNameMatchers(nameMatchers);

    // Info series are not enriched themselves.
    Set<Labels> ignored = new HashSet<>();
    for (EvalSeries s : base) {
      if (matchesAll(effectiveNames, s.labels.metricName())) {
        ignored.add(s.labels);
      }
    }
    List<EvalSeries> info = fetchInfoSeries(base, ignored, dataMatchers, effectiveNames, reference);
    Combiner combiner = new Combiner(info, ignored, dataMatchers);
    return ev.stepwise(
        List.of(base, info), (args, ts) -> combiner.combine(args.get(0), args.get(1)));
  }

  /**
   * With a positive {@code __name__} matcher, all given ones; with only negative ones, those
   * restricted to names ending in {@code _info}; with none, {@code target_info}.
   */
  private static List<Matcher> effectiveNameMatchers(List<Matcher> matchers) {
    for (Matcher m : matchers) {
      if (m.type() == Matcher.Type.EQUAL || m.type() == Matcher.Type.REGEX) {
        return matchers;
      }
    }
    List<Matcher> out = new ArrayList<>();
    if (matchers.isEmpty()) {
      out.add(Matcher.equal(Labels.METRIC_NAME, TARGET_INFO));
    } else {
      out.add(Matcher.regex(Labels.METRIC_NAME, ".+_info"));
      out.addAll(matchers);
    }
    return out;
  }

  private static boolean matchesAll(List<Matcher> matchers, String value) {
    for (Matcher m : matchers) {
      if (!m.matches(value)) {
        return false;
      }
    }
    return true;
  }

  // ---- which time the info series are read at

  /** The fixed {@code @} time (null when it follows the step) and the offset in milliseconds. */
  private record ReferenceTime(Long at, long offsetMs) {}

  private ReferenceTime referenceTime(Expr arg) {
    Deque<Expr> path = new ArrayDeque<>();
    ReferenceTime found = firstSelector(arg, path);
    return found != null ? found : new ReferenceTime(null, 0);
  }

  /**
   * Depth first, the first vector selector: its own {@code @} and offset, plus the offsets of the
   * enclosing subqueries up to the innermost one that fixes the time with {@code @}.
   */
  private ReferenceTime firstSelector(Expr expr, Deque<Expr> path) {
    if (expr instanceof VectorSelector vs) {
      Long at = ev.atTime(vs.timestamp(), vs.atAnchor());
      long offset = Durations.offsetMs(vs, ev.ctx);
      for (Expr enclosing : path) { // innermost first: the deque is used as a stack
        if (at != null) {
          break;
        }
        if (enclosing instanceof SubqueryExpr sq) {
          offset += Durations.offsetMs(sq, ev.ctx);
          at = ev.atTime(sq.timestamp(), sq.atAnchor());
        }
      }
      return new ReferenceTime(at, offset);
    }
    path.push(expr);
    try {
      for (Expr child : children(expr)) {
        ReferenceTime found = firstSelector(child, path);
        if (found != null) {
          return found;
        }
      }
      return null;
    } finally {
      path.pop();
    }
  }

  private static List<Expr> children(Expr expr) {
    return switch (expr) {
      case ParenExpr p -> List.of(p.expr());
      case UnaryExpr u -> List.of(u.expr());
      case BinaryExpr b -> List.of(b.lhs(), b.rhs());
      case AggregateExpr a -> a.param() == null ? List.of(a.expr()) : List.of(a.expr(), a.param());
      case Call c -> c.args();
      case MatrixSelector m -> List.of(m.selector());
      case SubqueryExpr s -> List.of(s.expr());
      default -> List.of();
    };
  }

  // ---- fetching

  /**
   * The info series sharing an identifying label value with a base series that is not ignored, one
   * point per step whose value is the timestamp of the sample found (newest wins on a clash).
   */
  private List<EvalSeries> fetchInfoSeries(
      List<EvalSeries> base,
      Set<Labels> ignored,
      Map<String, List<Matcher>> dataMatchers,
      List<Matcher> nameMatchers,
      ReferenceTime reference) {
    Map<String, Set<String>> idValues = new HashMap<>();
    for (EvalSeries s : base) {
      if (ignored.contains(s.labels)) {
        continue;
      }
      for (String name : IDENTIFYING) {
        String value = s.labels.get(name);
        if (!value.isEmpty()) {
          idValues.computeIfAbsent(name, k -> new HashSet<>()).add(value);
        }
      }
    }
    if (idValues.isEmpty()) {
      return List.of();
    }
    List<Matcher> matchers = new ArrayList<>();
    for (List<Matcher> ms : dataMatchers.values()) {
      matchers.addAll(ms);
    }
    matchers.addAll(nameMatchers);
    VectorSelector selector =
        new VectorSelector(
            "",
            matchers,
            Duration.ofMillis(reference.offsetMs()),
            null,
            reference.at(),
            null,
            false,
            false,
            null);
    List<EvalSeries> info = ev.selectInstant(selector, true);
    // Prometheus selects with one alternation regex per identifying label; filtering here gives
    // the same series without quoting label values into a regex.
    info.removeIf(s -> !hasIdentifyingValues(s.labels, idValues));
    return info;
  }

  private static boolean hasIdentifyingValues(Labels labels, Map<String, Set<String>> idValues) {
    for (Map.Entry<String, Set<String>> e : idValues.entrySet()) {
      if (!e.getValue().contains(labels.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }

  // ---- joining, one step at a time

  /** Joins the base vector of a step with the info vector of the same step. */
  private static final class Combiner {
    private final Set<Labels> ignored;
    private final Map<String, List<Matcher>> dataMatchers;
    private final Set<String> infoNames = new HashSet<>();
    private final boolean dropWithoutInfo;

    Combiner(List<EvalSeries> info, Set<Labels> ignored, Map<String, List<Matcher>> dataMatchers) {
      this.ignored = ignored;
      this.dataMatchers = dataMatchers;
      for (EvalSeries s : info) {
        infoNames.add(s.labels.metricName());
      }
      boolean allMatchEmpty = true;
      for (List<Matcher> ms : dataMatchers.values()) {
        for (Matcher m : ms) {
          allMatchEmpty &= m.matches("");
        }
      }
      this.dropWithoutInfo = !allMatchEmpty;
    }

    List<EvalSample> combine(List<EvalSample> base, List<EvalSample> info) {
      List<EvalSample> out = new ArrayList<>(base.size());
      if (base.isEmpty()) {
        return out;
      }
      Map<String, EvalSample> bySignature = new HashMap<>();
      for (EvalSample s : info) {
        String sig = signature(s.labels().metricName(), s.labels());
        EvalSample existing = bySignature.get(sig);
        // The point's value is the timestamp of its sample: the newer one wins.
        if (existing == null || existing.value() < s.value()) {
          bySignature.put(sig, s);
        } else if (existing.value() == s.value()) {
          throw new QueryException(
              QueryException.Kind.EXECUTION,
              "found duplicate series for info metric: existing "
                  + LabelOps.format(existing.labels())
                  + " @ "
                  + (long) existing.value()
                  + ", new "
                  + LabelOps.format(s.labels())
                  + " @ "
                  + (long) s.value());
        }
      }
      for (EvalSample b : base) {
        if (ignored.contains(b.labels())) {
          out.add(b);
          continue;
        }
        Map<String, String> added = new HashMap<>();
        boolean matched = false;
        for (String infoName : infoNames) {
          EvalSample match = bySignature.get(signature(infoName, b.labels()));
          if (match != null) {
            matched = true;
            addDataLabels(match.labels(), b.labels(), added);
          }
        }
        if (!matched && dropWithoutInfo) {
          continue;
        }
        Labels.Builder builder = b.labels().toBuilder();
        added.forEach(builder::set);
        out.add(new EvalSample(builder.build(), b.value(), b.dropName()));
      }
      return out;
    }

    private void addDataLabels(Labels info, Labels base, Map<String, String> added) {
      for (int i = 0; i < info.size(); i++) {
        String name = info.name(i);
        String value = info.value(i);
        if (name.equals(Labels.METRIC_NAME)
            || (!dataMatchers.isEmpty() && !dataMatchers.containsKey(name))) {
          continue;
        }
        String previous = added.get(name);
        if (previous != null && !previous.equals(value)) {
          throw new QueryException(QueryException.Kind.EXECUTION, "conflicting label: " + name);
        }
        if (!base.has(name)) {
          added.put(name, value);
        }
      }
    }

    /** The info metric's name and the identifying labels {@code labels} has. */
    private static String signature(String infoName, Labels labels) {
      StringBuilder sb = new StringBuilder(infoName);
      for (String name : IDENTIFYING) {
        String value = labels.get(name);
        if (!value.isEmpty()) {
          sb.append('\u00ff').append(name).append('\u00ff').append(value);
        }
      }
      return sb.toString();
    }
  }
}
