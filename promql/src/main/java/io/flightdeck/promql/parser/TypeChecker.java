package io.flightdeck.promql.parser;

import io.flightdeck.model.Matcher;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks the types and operand rules of a syntactically valid tree, in Prometheus's order (children
 * before their parent, arguments in order), so the first error reported is Prometheus's. Returns
 * the tree as Prometheus leaves it after checking: binary operations on scalars lose their vector
 * matching and set operations match many-to-many.
 */
final class TypeChecker {
  private final String query;
  private final byte[] input;

  private TypeChecker(String query, byte[] input) {
    this.query = query;
    this.input = input;
  }

  static Expr check(Expr expr, String query, byte[] input) {
    return new TypeChecker(query, input).check(expr);
  }

  private ParseException fail(PositionRange position, String message) {
    return new ParseException(query, position, message);
  }

  private Expr check(Expr expr) {
    return switch (expr) {
      case AggregateExpr e -> checkAggregate(e);
      case BinaryExpr e -> checkBinary(e);
      case Call e -> checkCall(e);
      case ParenExpr e -> new ParenExpr(check(e.expr()), e.position());
      case UnaryExpr e -> checkUnary(e);
      case SubqueryExpr e -> checkSubquery(e);
      case MatrixSelector e -> {
        checkSelector(e.selector(), false);
        yield e;
      }
      case VectorSelector e -> {
        checkSelector(e, false);
        yield e;
      }
      case NumberLiteral e -> e;
      case StringLiteral e -> e;
    };
  }

  private Expr expectType(Expr expr, ValueType wanted, String context) {
    Expr checked = check(expr);
    if (checked.type() != wanted) {
      throw fail(
          checked.position(),
          "expected type "
              + wanted.documentedName()
              + " in "
              + context
              + ", got "
              + checked.type().documentedName());
    }
    return checked;
  }

  private Expr checkAggregate(AggregateExpr e) {
    Expr inner = expectType(e.expr(), ValueType.VECTOR, "aggregation expression");
    Expr param =
        e.param() == null
            ? null
            : expectType(e.param(), e.op().parameterType(), "aggregation parameter");
    return new AggregateExpr(e.op(), inner, param, e.grouping(), e.without(), e.position());
  }

  private Expr checkBinary(BinaryExpr e) {
    Expr lhs = check(e.lhs());
    Expr rhs = check(e.rhs());
    ValueType lt = lhs.type();
    ValueType rt = rhs.type();
    BinaryOp op = e.op();
    VectorMatching matching = e.matching();

    if (e.returnBool() && !op.isComparison()) {
      throw fail(
          operatorPosition(lhs, rhs), "bool modifier can only be used on comparison operators");
    }
    if (op.isComparison() && !e.returnBool() && lt == ValueType.SCALAR && rt == ValueType.SCALAR) {
      throw fail(operatorPosition(lhs, rhs), "comparisons between scalars must use BOOL modifier");
    }
    if (op.isSetOperator() && matching.cardinality() == Cardinality.ONE_TO_ONE) {
      matching = matching.withCardinality(Cardinality.MANY_TO_MANY);
    }
    if (matching.on()) {
      for (String label : matching.matchingLabels()) {
        if (matching.include().contains(label)) {
          throw fail(
              operatorPosition(lhs, rhs),
              "label " + GoText.quote(label) + " must not occur in ON and GROUP clause at once");
        }
      }
    }
    if (lt != ValueType.SCALAR && lt != ValueType.VECTOR) {
      throw fail(
          lhs.position(), "binary expression must contain only scalar and instant vector types");
    }
    if (rt != ValueType.SCALAR && rt != ValueType.VECTOR) {
      throw fail(
          rhs.position(), "binary expression must contain only scalar and instant vector types");
    }
    PositionRange position = e.position();
    if (lt != ValueType.VECTOR || rt != ValueType.VECTOR) {
      if (!matching.matchingLabels().isEmpty()) {
        throw fail(position, "vector matching only allowed between instant vectors");
      }
      if (matching.hasFill()) {
        throw fail(position, "filling in missing series only allowed between instant vectors");
      }
      matching = null;
    } else if (op.isSetOperator()) {
      Cardinality card = matching.cardinality();
      if (card == Cardinality.ONE_TO_MANY || card == Cardinality.MANY_TO_ONE) {
        throw fail(position, "no grouping allowed for " + GoText.quote(op.symbol()) + " operation");
      }
      if (matching.hasFill()) {
        throw fail(position, "filling in missing series not allowed for set operators");
      }
    }
    if ((lt == ValueType.SCALAR || rt == ValueType.SCALAR) && op.isSetOperator()) {
      throw fail(
          position,
          "set operator " + GoText.quote(op.symbol()) + " not allowed in binary scalar expression");
    }
    return new BinaryExpr(op, lhs, rhs, matching, e.returnBool(), e.position());
  }

  /**
   * The operator and its modifiers: from the first non-space after the left operand to the last
   * non-space before the right one. Like Prometheus, the end points at that last character itself.
   */
  private PositionRange operatorPosition(Expr lhs, Expr rhs) {
    int start = lhs.position().end();
    while (isSpace(input[start])) {
      start++;
    }
    int end = rhs.position().start() - 1;
    while (isSpace(input[end])) {
      end--;
    }
    return new PositionRange(start, end);
  }

  private static boolean isSpace(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r';
  }

  private Expr checkCall(Call e) {
    FunctionSignature f = e.function();
    List<Expr> args = e.args();
    int declared = f.argTypes().size();
    String name = GoText.quote(f.name());
    if (f.variadic() == 0) {
      if (declared != args.size()) {
        throw fail(
            e.position(),
            "expected " + declared + " argument(s) in call to " + name + ", got " + args.size());
      }
    } else {
      int required = declared - 1;
      if (required > args.size()) {
        throw fail(
            e.position(),
            "expected at least "
                + required
                + " argument(s) in call to "
                + name
                + ", got "
                + args.size());
      }
      int allowed = required + f.variadic();
      if (f.variadic() > 0 && allowed < args.size()) {
        throw fail(
            e.position(),
            "expected at most "
                + allowed
                + " argument(s) in call to "
                + name
                + ", got "
                + args.size());
      }
    }
    boolean infoLabelSelector = f.name().equals("info") && args.size() > 1;
    if (infoLabelSelector) {
      checkInfoSelector(e, args.get(1));
    }
    List<Expr> checked = new ArrayList<>(args.size());
    for (int i = 0; i < args.size(); i++) {
      int typeIndex = i;
      if (i >= declared) {
        if (f.variadic() == 0) {
          break; // a count error has been reported; extra arguments go unchecked
        }
        typeIndex = declared - 1;
      }
      Expr arg =
          infoLabelSelector && i == 1 && args.get(i) instanceof VectorSelector vs
              ? checkSelector(vs, true)
              : check(args.get(i));
      ValueType wanted = f.argTypes().get(typeIndex);
      if (arg.type() != wanted) {
        throw fail(
            arg.position(),
            "expected type "
                + wanted.documentedName()
                + " in call to function "
                + name
                + ", got "
                + arg.type().documentedName());
      }
      checked.add(arg);
    }
    return new Call(f, checked, e.position());
  }

  /** info()'s second argument selects info series by labels only, so it may match everything. */
  private void checkInfoSelector(Call call, Expr selector) {
    if (selector.type() != ValueType.VECTOR) {
      throw fail(
          call.position(),
          "expected type instant vector in call to function \"info\", got "
              + selector.type().documentedName());
    }
    if (selector instanceof VectorSelector vs) {
      if (!vs.name().isEmpty()) {
        throw fail(vs.position(), "expected label selectors only, got vector selector instead");
      }
    } else {
      throw fail(selector.position(), "expected label selectors only");
    }
  }

  private Expr checkUnary(UnaryExpr e) {
    Expr inner = check(e.expr());
    ValueType t = inner.type();
    if (t != ValueType.SCALAR && t != ValueType.VECTOR) {
      throw fail(
          e.position(),
          "unary expression only allowed on expressions of type scalar or instant vector, got "
              + GoText.quote(t.documentedName()));
    }
    return new UnaryExpr(e.op(), inner, e.position());
  }

  private Expr checkSubquery(SubqueryExpr e) {
    Expr inner = check(e.expr());
    if (inner.type() != ValueType.VECTOR) {
      throw fail(
          e.position(),
          "subquery is only allowed on instant vector, got "
              + inner.type().internalName()
              + " instead");
    }
    return new SubqueryExpr(
        inner,
        e.range(),
        e.rangeExpr(),
        e.step(),
        e.stepExpr(),
        e.originalOffset(),
        e.originalOffsetExpr(),
        e.timestamp(),
        e.atAnchor(),
        e.position());
  }

  private VectorSelector checkSelector(VectorSelector vs, boolean mayMatchEverything) {
    List<Matcher> matchers = vs.matchers();
    if (!vs.name().isEmpty()) {
      // The last matcher is the name written before the braces; another name matcher conflicts.
      for (Matcher m : matchers.subList(0, matchers.size() - 1)) {
        if (m.name().equals("__name__")) {
          throw fail(
              vs.position(),
              "metric name must not be set twice: "
                  + GoText.quote(vs.name())
                  + " or "
                  + GoText.quote(m.value()));
        }
      }
      return vs;
    }
    // Guards against selecting every series by accident (a typo in the only matcher, say).
    if (!mayMatchEverything && matchers.stream().allMatch(Matcher::matchesEmpty)) {
      throw fail(vs.position(), "vector selector must contain at least one non-empty matcher");
    }
    return vs;
  }
}
