package io.flightdeck.promql.engine;

import io.flightdeck.model.Labels;
import io.flightdeck.promql.parser.BinaryExpr;
import io.flightdeck.promql.parser.BinaryOp;
import io.flightdeck.promql.parser.Cardinality;
import io.flightdeck.promql.parser.GoFormat;
import io.flightdeck.promql.parser.VectorMatching;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Binary operators between scalars and vectors: arithmetic, comparisons (filtering or with {@code
 * bool}), and the set operators, with Prometheus's vector matching ({@code on}/{@code ignoring},
 * {@code group_left}/{@code group_right}) and its errors for ambiguous matches.
 */
final class BinaryEvaluator {
  private final Evaluator ev;

  BinaryEvaluator(Evaluator ev) {
    this.ev = ev;
  }

  List<EvalSeries> eval(BinaryExpr e) {
    boolean lhsScalar = Evaluator.isScalar(e.lhs());
    boolean rhsScalar = Evaluator.isScalar(e.rhs());
    List<EvalSeries> lhs = ev.eval(e.lhs());
    List<EvalSeries> rhs = ev.eval(e.rhs());
    BinaryOp op = e.op();
    if (lhsScalar && rhsScalar) {
      return ev.stepwise(
          List.of(lhs, rhs),
          (v, ts) ->
              List.of(
                  new EvalSample(
                      Labels.EMPTY,
                      scalarOp(op, v.get(0).get(0).value(), v.get(1).get(0).value()),
                      false)));
    }
    if (rhsScalar) {
      return vectorScalarSeries(e, lhs, perStep(rhs), false);
    }
    if (lhsScalar) {
      return vectorScalarSeries(e, rhs, perStep(lhs), true);
    }
    VectorMatching matching = e.matching();
    Signatures signatures = new Signatures(matching);
    return switch (op) {
      case AND -> ev.stepwise(List.of(lhs, rhs), (v, ts) -> and(v.get(0), v.get(1), signatures));
      case OR -> ev.stepwise(List.of(lhs, rhs), (v, ts) -> or(v.get(0), v.get(1), signatures));
      case UNLESS ->
          ev.stepwise(List.of(lhs, rhs), (v, ts) -> unless(v.get(0), v.get(1), signatures));
      default ->
          ev.stepwise(
              List.of(lhs, rhs), (v, ts) -> vectorVector(e, v.get(0), v.get(1), signatures));
    };
  }

  /**
   * Match signatures and matched labels per label set; a series keeps its label object across
   * steps.
   */
  private static final class Signatures {
    private final VectorMatching matching;
    private final Map<Labels, String> cache = new IdentityHashMap<>();
    private final Map<Labels, Labels> matchedCache = new IdentityHashMap<>();
    private final List<String> ignoredWithName;

    Signatures(VectorMatching matching) {
      this.matching = matching;
      List<String> ignored = new ArrayList<>(matching.matchingLabels());
      ignored.add(Labels.METRIC_NAME);
      this.ignoredWithName = ignored;
    }

    String of(Labels labels) {
      return cache.computeIfAbsent(
          labels, l -> LabelOps.signature(l, matching.matchingLabels(), matching.on()));
    }

    /**
     * The labels the match is made on (Prometheus's {@code MatchLabels}): the {@code on} labels, or
     * all but the {@code ignoring} ones and the name. A fill sample carries these.
     */
    Labels matched(Labels labels) {
      return matchedCache.computeIfAbsent(
          labels,
          l ->
              matching.on()
                  ? LabelOps.keep(l, matching.matchingLabels())
                  : LabelOps.drop(l, ignoredWithName));
    }
  }

  private static List<EvalSample> and(List<EvalSample> lhs, List<EvalSample> rhs, Signatures sigs) {
    if (lhs.isEmpty() || rhs.isEmpty()) {
      return List.of();
    }
    Set<String> right = new HashSet<>();
    for (EvalSample s : rhs) {
      right.add(sigs.of(s.labels()));
    }
    List<EvalSample> out = new ArrayList<>();
    for (EvalSample s : lhs) {
      if (right.contains(sigs.of(s.labels()))) {
        out.add(s);
      }
    }
    return out;
  }

  private static List<EvalSample> or(List<EvalSample> lhs, List<EvalSample> rhs, Signatures sigs) {
    List<EvalSample> out = new ArrayList<>(lhs);
    if (lhs.isEmpty() || rhs.isEmpty()) {
      out.addAll(rhs);
      return out;
    }
    Set<String> left = new HashSet<>();
    for (EvalSample s : lhs) {
      left.add(sigs.of(s.labels()));
    }
    for (EvalSample s : rhs) {
      if (!left.contains(sigs.of(s.labels()))) {
        out.add(s);
      }
    }
    return out;
  }

  private static List<EvalSample> unless(
      List<EvalSample> lhs, List<EvalSample> rhs, Signatures sigs) {
    if (lhs.isEmpty() || rhs.isEmpty()) {
      return new ArrayList<>(lhs);
    }
    Set<String> right = new HashSet<>();
    for (EvalSample s : rhs) {
      right.add(sigs.of(s.labels()));
    }
    List<EvalSample> out = new ArrayList<>();
    for (EvalSample s : lhs) {
      if (!right.contains(sigs.of(s.labels()))) {
        out.add(s);
      }
    }
    return out;
  }

  /**
   * Arithmetic and comparisons between vectors. A series without a partner pairs with a sample of
   * its match labels and the fill value when that side has one: {@code fillRhs} stands in for a
   * missing "one" side, {@code fillLhs} for a missing "many" side.
   */
  private List<EvalSample> vectorVector(
      BinaryExpr e, List<EvalSample> lhs, List<EvalSample> rhs, Signatures sigs) {
    VectorMatching matching = e.matching();
    if ((lhs.isEmpty() && rhs.isEmpty())
        || ((lhs.isEmpty() || rhs.isEmpty()) && !matching.hasFill())) {
      return List.of();
    }
    boolean swap = matching.cardinality() == Cardinality.ONE_TO_MANY;
    List<EvalSample> many = swap ? rhs : lhs;
    List<EvalSample> one = swap ? lhs : rhs;
    Map<String, EvalSample> oneSide = new HashMap<>();
    for (EvalSample s : one) {
      EvalSample previous = oneSide.put(sigs.of(s.labels()), s);
      if (previous != null) {
        throw duplicateOnOneSide(matching, s, previous, swap);
      }
    }
    List<EvalSample> out = new ArrayList<>();
    Pairing pairing = new Pairing(e, out);
    for (EvalSample m : many) {
      String sig = sigs.of(m.labels());
      EvalSample o = oneSide.get(sig);
      if (o == null) {
        if (matching.fillRhs() == null) {
          continue;
        }
        o = new EvalSample(sigs.matched(m.labels()), matching.fillRhs(), false);
      }
      pairing.pair(m, o, sig);
    }
    if (matching.fillLhs() != null) {
      for (EvalSample o : one) {
        String sig = sigs.of(o.labels());
        if (!pairing.matched(sig)) {
          pairing.pair(new EvalSample(sigs.matched(o.labels()), matching.fillLhs(), false), o, sig);
        }
      }
    }
    return out;
  }

  /** One step's pairs of a many (or one) side sample and its one-side partner. */
  private final class Pairing {
    private final BinaryExpr e;
    private final VectorMatching matching;
    private final List<EvalSample> out;
    private final boolean swap;
    private final boolean oneToOne;
    private final Set<String> matchedOneToOne = new HashSet<>();
    private final Map<String, Set<Labels>> matchedManyToOne = new HashMap<>();
    private final Map<Labels, Map<Labels, Labels>> resultLabels = new IdentityHashMap<>();

    Pairing(BinaryExpr e, List<EvalSample> out) {
      this.e = e;
      this.matching = e.matching();
      this.out = out;
      this.swap = matching.cardinality() == Cardinality.ONE_TO_MANY;
      this.oneToOne = matching.cardinality() == Cardinality.ONE_TO_ONE;
    }

    boolean matched(String sig) {
      return oneToOne ? matchedOneToOne.contains(sig) : matchedManyToOne.containsKey(sig);
    }

    void pair(EvalSample m, EvalSample o, String sig) {
      boolean returnBool = e.returnBool();
      double l = swap ? o.value() : m.value();
      double r = swap ? m.value() : o.value();
      double value;
      boolean keep;
      if (e.op().isComparison()) {
        keep = compare(e.op(), l, r);
        value = l;
      } else {
        keep = true;
        value = arithmetic(e.op(), l, r);
      }
      if (returnBool) {
        value = keep ? 1 : 0;
      }
      boolean dropName = !ev.ctx.delayedNameRemoval && returnBool;
      Labels metric =
          resultLabels
              .computeIfAbsent(m.labels(), k -> new IdentityHashMap<>())
              .computeIfAbsent(
                  o.labels(),
                  k -> resultMetric(m.labels(), o.labels(), e.op(), matching, dropName));
      if (oneToOne) {
        if (!matchedOneToOne.add(sig)) {
          throw new QueryException(
              QueryException.Kind.EXECUTION,
              "multiple matches for labels: many-to-one matching must be explicit"
                  + " (group_left/group_right)");
        }
      } else if (!matchedManyToOne.computeIfAbsent(sig, k -> new HashSet<>()).add(metric)) {
        throw new QueryException(
            QueryException.Kind.EXECUTION,
            "multiple matches for labels: grouping labels must ensure unique matches");
      }
      if (keep || returnBool) {
        out.add(new EvalSample(metric, value, returnBool));
      }
    }
  }

  private static QueryException duplicateOnOneSide(
      VectorMatching matching, EvalSample a, EvalSample b, boolean swap) {
    Labels matched =
        matching.on()
            ? LabelOps.keep(a.labels(), matching.matchingLabels())
            : LabelOps.drop(a.labels(), matching.matchingLabels());
    String first = LabelOps.format(a.labels());
    String second = LabelOps.format(b.labels());
    if (first.compareTo(second) > 0) {
      String t = first;
      first = second;
      second = t;
    }
    return new QueryException(
        QueryException.Kind.EXECUTION,
        "found duplicate series for the match group "
            + LabelOps.format(matched)
            + " on the "
            + (swap ? "left" : "right")
            + " hand-side of the operation: ["
            + first
            + ", "
            + second
            + "];many-to-many matching not allowed: matching labels must be unique on one side");
  }

  private static Labels resultMetric(
      Labels lhs, Labels rhs, BinaryOp op, VectorMatching matching, boolean dropName) {
    Labels.Builder b = lhs.toBuilder();
    if (dropName || !op.isComparison()) {
      LabelOps.METADATA.forEach(b::remove);
    }
    if (matching.cardinality() == Cardinality.ONE_TO_ONE) {
      if (matching.on()) {
        for (int i = 0; i < lhs.size(); i++) {
          if (!matching.matchingLabels().contains(lhs.name(i))) {
            b.remove(lhs.name(i));
          }
        }
      } else {
        for (String name : matching.matchingLabels()) {
          b.remove(name);
        }
      }
    }
    for (String name : matching.include()) {
      String value = rhs.get(name);
      if (value != null && !value.isEmpty()) {
        b.set(name, value);
      } else {
        b.remove(name);
      }
    }
    return b.build();
  }

  private double[] perStep(List<EvalSeries> scalar) {
    double[] values = new double[ev.numSteps];
    java.util.Arrays.fill(values, Double.NaN);
    if (!scalar.isEmpty()) {
      EvalSeries s = scalar.get(0);
      for (int i = 0; i < s.size; i++) {
        values[ev.stepIndex(s.timestamps[i])] = s.values[i];
      }
    }
    return values;
  }

  /**
   * A vector against a scalar, series by series: the output labels are worked out once per series
   * instead of once per step. Series that end up with equal labels are merged, failing as
   * Prometheus does if they meet at a step.
   */
  private List<EvalSeries> vectorScalarSeries(
      BinaryExpr e, List<EvalSeries> vector, double[] scalar, boolean scalarOnLeft) {
    BinaryOp op = e.op();
    boolean returnBool = e.returnBool();
    boolean changesName = !op.isComparison() || returnBool;
    List<EvalSeries> out = new ArrayList<>(vector.size());
    for (EvalSeries in : vector) {
      Labels labels =
          changesName && !ev.ctx.delayedNameRemoval
              ? LabelOps.withoutMetadata(in.labels)
              : in.labels;
      EvalSeries result =
          new EvalSeries(ev.ctx.memory, labels, changesName || in.dropName, in.size);
      for (int i = 0; i < in.size; i++) {
        double x = in.values[i];
        double c = scalar[ev.stepIndex(in.timestamps[i])];
        double l = scalarOnLeft ? c : x;
        double r = scalarOnLeft ? x : c;
        double value;
        boolean keep;
        if (op.isComparison()) {
          keep = compare(op, l, r);
          value = x;
        } else {
          keep = true;
          value = arithmetic(op, l, r);
        }
        if (returnBool) {
          value = keep ? 1 : 0;
          keep = true;
        }
        if (keep) {
          result.add(in.timestamps[i], value);
        }
      }
      if (result.size > 0) {
        out.add(result);
      }
    }
    if (ev.ctx.delayedNameRemoval) {
      return out;
    }
    if (ev.isInstant()) {
      java.util.Set<Labels> seen = new java.util.HashSet<>();
      for (EvalSeries s : out) {
        if (!seen.add(s.labels)) {
          throw Evaluator.sameLabelset();
        }
      }
      return out;
    }
    return ev.mergeSameLabels(out);
  }

  static double scalarOp(BinaryOp op, double l, double r) {
    if (op.isComparison()) {
      return compare(op, l, r) ? 1 : 0;
    }
    return arithmetic(op, l, r);
  }

  static boolean compare(BinaryOp op, double l, double r) {
    return switch (op) {
      case EQL -> l == r;
      case NEQ -> l != r;
      case GTR -> l > r;
      case LSS -> l < r;
      case GTE -> l >= r;
      case LTE -> l <= r;
      default -> throw new IllegalArgumentException("not a comparison: " + op);
    };
  }

  static double arithmetic(BinaryOp op, double l, double r) {
    return switch (op) {
      case ADD -> l + r;
      case SUB -> l - r;
      case MUL -> l * r;
      case DIV -> l / r;
      case POW -> GoMath.pow(l, r);
      case MOD -> l % r;
      case ATAN2 -> Math.atan2(l, r);
      default ->
          throw new QueryException(
              QueryException.Kind.EXECUTION,
              "operator " + GoFormat.quote(op.symbol()) + " not allowed for float operations");
    };
  }
}
