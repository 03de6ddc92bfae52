package io.flightdeck.promql.parser;

import static io.flightdeck.promql.parser.TokenType.ADD;
import static io.flightdeck.promql.parser.TokenType.COMMA;
import static io.flightdeck.promql.parser.TokenType.LEFT_BRACE;
import static io.flightdeck.promql.parser.TokenType.LEFT_PAREN;
import static io.flightdeck.promql.parser.TokenType.RIGHT_BRACE;
import static io.flightdeck.promql.parser.TokenType.RIGHT_BRACKET;
import static io.flightdeck.promql.parser.TokenType.RIGHT_PAREN;
import static io.flightdeck.promql.parser.TokenType.STRING;
import static io.flightdeck.promql.parser.TokenType.SUB;

import io.flightdeck.model.Matcher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the syntax tree by recursive descent with precedence climbing. Prometheus generates its
 * parser with yacc; this one reproduces its grammar, operator precedence, conflict resolutions and,
 * most visibly, its error messages: each syntax error names the offending token in the context the
 * yacc parser would have recovered in, and the semantic checks Prometheus makes while reducing
 * rules happen here at the same point of reading, so the first error is the same one.
 *
 * <p>Not thread-safe; one instance parses one query.
 */
final class SyntaxParser {
  /** Deepest nesting accepted, so that recursion (here and in later tree walks) stays bounded. */
  static final int MAX_DEPTH = 1000;

  private static final int OR_PRECEDENCE = 1;
  private static final int POW_PRECEDENCE = 6;
  private static final String NAME_LABEL = "__name__";

  private final String query;
  private final Lexer lexer;
  private final ParseOptions options;

  private Token lookahead;
  private int lastEnd;
  private int depth;

  /** Where an expression-level syntax error is reported: inside an aggregation or at the top. */
  private ErrorContext exprContext = ErrorContext.TOP;

  SyntaxParser(String query, byte[] input, ParseOptions options) {
    this.query = query;
    this.lexer = new Lexer(input);
    this.options = options;
  }

  Expr parseQuery() {
    if (peek().type() == TokenType.EOF) {
      throw fail(new PositionRange(0, 0), "no expression found in input");
    }
    Expr expr = parseExpr();
    Token t = peek();
    if (t.type() != TokenType.EOF) {
      throw unexpected(t, exprContext);
    }
    return expr;
  }

  // ---- tokens and errors

  private Token peek() {
    if (lookahead == null) {
      Token t = lexer.next();
      while (t.type() == TokenType.COMMENT) {
        t = lexer.next();
      }
      if (t.type() == TokenType.ERROR) {
        throw fail(t.position(), t.text());
      }
      lookahead = t;
    }
    return lookahead;
  }

  private Token next() {
    Token t = peek();
    lookahead = null;
    lastEnd = t.end();
    return t;
  }

  private Token expect(TokenType type, ErrorContext context) {
    Token t = peek();
    if (t.type() != type) {
      throw unexpected(t, context);
    }
    return next();
  }

  private ParseException fail(PositionRange position, String message) {
    return new ParseException(query, position, message);
  }

  private ParseException unexpected(Token t, ErrorContext context) {
    return fail(t.position(), context.describe(t));
  }

  private void enter() {
    if (++depth > MAX_DEPTH) {
      throw fail(peek().position(), "expression nesting depth exceeds the limit of " + MAX_DEPTH);
    }
  }

  private void leave() {
    depth--;
  }

  // ---- expressions

  private Expr parseExpr() {
    return parseBinary(OR_PRECEDENCE);
  }

  /** Binary operators at or above {@code minPrecedence}; {@code ^} is right-associative. */
  private Expr parseBinary(int minPrecedence) {
    enter();
    Expr lhs = parseUnary();
    while (true) {
      BinaryOp op = binaryOp(peek().type());
      if (op == null || precedence(op) < minPrecedence) {
        break;
      }
      next();
      BinaryModifiers modifiers = parseBinaryModifiers();
      int precedence = precedence(op);
      Expr rhs = parseBinary(op == BinaryOp.POW ? precedence : precedence + 1);
      lhs = newBinary(lhs, op, modifiers, rhs);
    }
    leave();
    return lhs;
  }

  /**
   * A sign binds like {@code *}: it takes in {@code ^} and the postfix modifiers ({@code -a ^ 2} is
   * {@code -(a ^ 2)}) but not {@code *} ({@code -a * b} is {@code (-a) * b}). A sign on a number
   * literal is folded into it.
   */
  private Expr parseUnary() {
    Token t = peek();
    if (t.type() == ADD || t.type() == SUB) {
      next();
      UnaryOp op = t.type() == ADD ? UnaryOp.PLUS : UnaryOp.MINUS;
      Expr operand = parseBinary(POW_PRECEDENCE);
      if (operand instanceof NumberLiteral number) {
        return number.signed(op, t.start());
      }
      return new UnaryExpr(op, operand, new PositionRange(t.start(), operand.position().end()));
    }
    return parsePostfix(parsePrimary());
  }

  /** Offset, {@code @}, range and subquery brackets bind tighter than any operator. */
  private Expr parsePostfix(Expr expr) {
    Expr result = expr;
    while (true) {
      Token t = peek();
      switch (t.type()) {
        case OFFSET -> {
          next();
          result = parseOffset(result);
        }
        case AT -> {
          next();
          result = parseAt(result);
        }
        case LEFT_BRACKET -> {
          next();
          result = parseRangeOrSubquery(result, t);
        }
        case ANCHORED, SMOOTHED -> {
          next();
          result = setExtended(result, t.type() == TokenType.ANCHORED);
        }
        default -> {
          return result;
        }
      }
    }
  }

  private Expr parsePrimary() {
    Token t = peek();
    switch (t.type()) {
      case NUMBER, DURATION -> {
        next();
        return numberLiteral(t);
      }
      case STRING -> {
        next();
        return new StringLiteral(GoText.unquote(t.text()), t.position());
      }
      case LEFT_PAREN -> {
        next();
        Expr inner = parseExpr();
        Token close = expect(RIGHT_PAREN, exprContext);
        return new ParenExpr(inner, new PositionRange(t.start(), close.end()));
      }
      case LEFT_BRACE -> {
        return parseVectorSelector(null);
      }
      case IDENTIFIER, START, END, STEP, RANGE, MAX_OF, MIN_OF -> {
        next();
        return peek().type() == LEFT_PAREN ? parseCall(t) : parseVectorSelector(t);
      }
      case SUM,
          AVG,
          COUNT,
          MIN,
          MAX,
          GROUP,
          STDDEV,
          STDVAR,
          TOPK,
          BOTTOMK,
          COUNT_VALUES,
          QUANTILE,
          LIMITK,
          LIMIT_RATIO -> {
        next();
        TokenType following = peek().type();
        boolean aggregation =
            following == LEFT_PAREN || following == TokenType.BY || following == TokenType.WITHOUT;
        return aggregation ? parseAggregation(t) : parseVectorSelector(t);
      }
      // Keywords that may also name a metric where an expression starts.
      case METRIC_IDENTIFIER,
          BY,
          WITHOUT,
          LAND,
          LOR,
          LUNLESS,
          OFFSET,
          FILL,
          FILL_LEFT,
          FILL_RIGHT,
          ANCHORED,
          SMOOTHED -> {
        next();
        return parseVectorSelector(t);
      }
      default -> throw unexpected(t, exprContext);
    }
  }

  private NumberLiteral numberLiteral(Token t) {
    if (t.type() == TokenType.DURATION) {
      try {
        Duration d = GoDuration.parse(t.text());
        return new NumberLiteral(GoDuration.seconds(d), true, t.position());
      } catch (GoDuration.DurationSyntaxException e) {
        throw fail(t.position(), e.getMessage());
      }
    }
    try {
      return new NumberLiteral(GoNumbers.parseLiteral(t.text()), false, t.position());
    } catch (GoNumbers.NumberSyntaxException e) {
      throw fail(t.position(), "error parsing number: " + e.getMessage());
    }
  }

  // ---- binary operators

  private record BinaryModifiers(boolean returnBool, VectorMatching matching) {}

  /** {@code bool}, then {@code on}/{@code ignoring} and a group modifier, then fill modifiers. */
  private BinaryModifiers parseBinaryModifiers() {
    boolean returnBool = false;
    if (peek().type() == TokenType.BOOL) {
      next();
      returnBool = true;
    }
    Cardinality cardinality = Cardinality.ONE_TO_ONE;
    List<String> matchingLabels = List.of();
    boolean on = false;
    List<String> include = List.of();
    Token t = peek();
    if (t.type() == TokenType.ON || t.type() == TokenType.IGNORING) {
      next();
      on = t.type() == TokenType.ON;
      matchingLabels = parseGroupingLabels().labels();
      Token group = peek();
      if (group.type() == TokenType.GROUP_LEFT || group.type() == TokenType.GROUP_RIGHT) {
        next();
        cardinality =
            group.type() == TokenType.GROUP_LEFT
                ? Cardinality.MANY_TO_ONE
                : Cardinality.ONE_TO_MANY;
        if (peek().type() == LEFT_PAREN) {
          include = parseGroupingLabels().labels();
        }
      }
    }
    Double[] fill = parseFillModifiers();
    return new BinaryModifiers(
        returnBool, new VectorMatching(cardinality, matchingLabels, on, include, fill[0], fill[1]));
  }

  /**
   * Reads {@code fill(v)}, or {@code fill_left(v)} and {@code fill_right(v)} in either order: the
   * left and right fill values, null where absent.
   */
  private Double[] parseFillModifiers() {
    Double[] fill = new Double[2];
    TokenType t = peek().type();
    if (t == TokenType.FILL) {
      next();
      fill[0] = parseFillValue();
      fill[1] = fill[0];
    } else if (t == TokenType.FILL_LEFT || t == TokenType.FILL_RIGHT) {
      next();
      fill[t == TokenType.FILL_LEFT ? 0 : 1] = parseFillValue();
      TokenType other = t == TokenType.FILL_LEFT ? TokenType.FILL_RIGHT : TokenType.FILL_LEFT;
      if (peek().type() == other) {
        next();
        fill[other == TokenType.FILL_LEFT ? 0 : 1] = parseFillValue();
      }
    }
    return fill;
  }

  private double parseFillValue() {
    expect(LEFT_PAREN, exprContext);
    Token t = peek();
    boolean negative = false;
    if (t.type() == ADD || t.type() == SUB) {
      negative = t.type() == SUB;
      next();
      t = peek();
    }
    if (t.type() != TokenType.NUMBER && t.type() != TokenType.DURATION) {
      throw unexpected(t, exprContext);
    }
    next();
    double value = numberLiteral(t).value();
    expect(RIGHT_PAREN, exprContext);
    return negative ? -value : value;
  }

  private BinaryExpr newBinary(Expr lhs, BinaryOp op, BinaryModifiers modifiers, Expr rhs) {
    BinaryExpr expr =
        new BinaryExpr(
            op,
            lhs,
            rhs,
            modifiers.matching(),
            modifiers.returnBool(),
            PositionRange.merge(lhs.position(), rhs.position()));
    if (modifiers.matching().hasFill() && !options.binopFillModifiers()) {
      throw fail(expr.position(), "binop fill modifiers are experimental and not enabled");
    }
    return expr;
  }

  private static BinaryOp binaryOp(TokenType type) {
    return switch (type) {
      case ADD -> BinaryOp.ADD;
      case SUB -> BinaryOp.SUB;
      case MUL -> BinaryOp.MUL;
      case DIV -> BinaryOp.DIV;
      case MOD -> BinaryOp.MOD;
      case POW -> BinaryOp.POW;
      case ATAN2 -> BinaryOp.ATAN2;
      case EQLC -> BinaryOp.EQL;
      case NEQ -> BinaryOp.NEQ;
      case GTR -> BinaryOp.GTR;
      case LSS -> BinaryOp.LSS;
      case GTE -> BinaryOp.GTE;
      case LTE -> BinaryOp.LTE;
      case TRIM_UPPER -> BinaryOp.TRIM_UPPER;
      case TRIM_LOWER -> BinaryOp.TRIM_LOWER;
      case LAND -> BinaryOp.AND;
      case LOR -> BinaryOp.OR;
      case LUNLESS -> BinaryOp.UNLESS;
      default -> null;
    };
  }

  private static int precedence(BinaryOp op) {
    return switch (op) {
      case OR -> OR_PRECEDENCE;
      case AND, UNLESS -> 2;
      case EQL, NEQ, GTR, LSS, GTE, LTE, TRIM_UPPER, TRIM_LOWER -> 3;
      case ADD, SUB -> 4;
      case MUL, DIV, MOD, ATAN2 -> 5;
      case POW -> POW_PRECEDENCE;
    };
  }

  // ---- grouping labels (by, without, on, ignoring, group_left, group_right)

  private record Grouping(List<String> labels, int end) {}

  private Grouping parseGroupingLabels() {
    expect(LEFT_PAREN, ErrorContext.GROUPING_OPEN);
    List<String> labels = new ArrayList<>();
    if (peek().type() == RIGHT_PAREN) {
      return new Grouping(labels, next().end());
    }
    while (true) {
      labels.add(parseGroupingLabel());
      Token t = peek();
      if (t.type() == COMMA) {
        next();
        if (peek().type() == RIGHT_PAREN) {
          return new Grouping(labels, next().end());
        }
      } else if (t.type() == RIGHT_PAREN) {
        return new Grouping(labels, next().end());
      } else {
        throw unexpected(t, ErrorContext.GROUPING_NEXT);
      }
    }
  }

  private String parseGroupingLabel() {
    Token t = peek();
    if (t.type() == STRING) {
      next();
      String name = GoText.unquote(t.text());
      if (name.isEmpty() || !Utf8.isValid(name)) {
        throw fail(t.position(), "invalid label name for grouping: " + GoText.quote(name));
      }
      return name;
    }
    if (!mayBeLabel(t.type())) {
      throw unexpected(t, ErrorContext.GROUPING_LABEL);
    }
    next();
    return t.text();
  }

  /** Words that are keywords elsewhere but label names in a grouping list (all but without). */
  private static boolean mayBeLabel(TokenType type) {
    return switch (type.category()) {
      case AGGREGATOR, PREPROCESSOR -> true;
      case KEYWORD -> type != TokenType.WITHOUT;
      default ->
          type == TokenType.IDENTIFIER
              || type == TokenType.METRIC_IDENTIFIER
              || type == TokenType.LAND
              || type == TokenType.LOR
              || type == TokenType.LUNLESS
              || type == TokenType.ATAN2;
    };
  }

  // ---- aggregations and calls

  private record CallBody(List<Expr> args, int end) {}

  /** {@code op [by|without (...)] (args)} or {@code op (args) [by|without (...)]}. */
  private AggregateExpr parseAggregation(Token opToken) {
    ErrorContext enclosing = exprContext;
    exprContext = ErrorContext.AGGREGATION;
    List<String> grouping = List.of();
    boolean without = false;
    CallBody body;
    int end;
    Token t = peek();
    if (t.type() == TokenType.BY || t.type() == TokenType.WITHOUT) {
      next();
      without = t.type() == TokenType.WITHOUT;
      grouping = parseGroupingLabels().labels();
      if (peek().type() != LEFT_PAREN) {
        throw unexpected(peek(), exprContext);
      }
      body = parseCallBody();
      end = body.end();
    } else {
      body = parseCallBody();
      end = body.end();
      t = peek();
      if (t.type() == TokenType.BY || t.type() == TokenType.WITHOUT) {
        next();
        without = t.type() == TokenType.WITHOUT;
        Grouping labels = parseGroupingLabels();
        grouping = labels.labels();
        end = labels.end();
      }
    }
    exprContext = enclosing;
    return newAggregate(opToken, grouping, without, body.args(), end);
  }

  private AggregateExpr newAggregate(
      Token opToken, List<String> grouping, boolean without, List<Expr> args, int end) {
    AggregateOp op = AggregateOp.valueOf(opToken.type().name());
    PositionRange position = new PositionRange(opToken.start(), end);
    if (args.isEmpty()) {
      throw fail(position, "no arguments for aggregate expression provided");
    }
    int wanted = 1;
    Expr param = null;
    if (op.hasParameter()) {
      if (op.isExperimental() && !options.experimentalFunctions()) {
        throw fail(
            position,
            op.keyword()
                + "() is experimental and must be enabled with"
                + " --enable-feature=promql-experimental-functions");
      }
      wanted = 2;
      param = args.get(0);
    }
    if (args.size() != wanted) {
      throw fail(
          position,
          "wrong number of arguments for aggregate expression provided, expected "
              + wanted
              + ", got "
              + args.size());
    }
    return new AggregateExpr(op, args.get(wanted - 1), param, grouping, without, position);
  }

  private Call parseCall(Token name) {
    CallBody body = parseCallBody();
    FunctionSignature function =
        Functions.find(name.text())
            .orElseThrow(
                () ->
                    fail(
                        name.position(),
                        "unknown function with name " + GoText.quote(name.text())));
    if (function.experimental() && !options.experimentalFunctions()) {
      throw fail(name.position(), "function " + GoText.quote(name.text()) + " is not enabled");
    }
    return new Call(function, body.args(), new PositionRange(name.start(), body.end()));
  }

  /**
   * A call's or aggregation's arguments. They count as a nesting level of their own: the parser
   * recurses through more frames for {@code f(f(...))} than for {@code ((...))}.
   */
  private CallBody parseCallBody() {
    expect(LEFT_PAREN, exprContext);
    List<Expr> args = new ArrayList<>();
    if (peek().type() == RIGHT_PAREN) {
      return new CallBody(args, next().end());
    }
    enter();
    args.add(parseExpr());
    while (true) {
      Token t = peek();
      if (t.type() == COMMA) {
        next();
        if (!startsExpression(peek().type())) {
          throw fail(t.position(), "trailing commas not allowed in function call args");
        }
        args.add(parseExpr());
      } else if (t.type() == RIGHT_PAREN) {
        leave();
        return new CallBody(args, next().end());
      } else {
        throw unexpected(t, exprContext);
      }
    }
  }

  private static boolean startsExpression(TokenType type) {
    return switch (type) {
      case NUMBER,
          DURATION,
          STRING,
          LEFT_PAREN,
          LEFT_BRACE,
          ADD,
          SUB,
          IDENTIFIER,
          METRIC_IDENTIFIER,
          BY,
          WITHOUT,
          LAND,
          LOR,
          LUNLESS,
          OFFSET,
          FILL,
          FILL_LEFT,
          FILL_RIGHT,
          ANCHORED,
          SMOOTHED ->
          true;
      default ->
          type.category() == TokenType.Category.AGGREGATOR
              || type.category() == TokenType.Category.PREPROCESSOR;
    };
  }

  // ---- vector selectors

  private VectorSelector parseVectorSelector(Token nameToken) {
    List<Matcher> matchers = new ArrayList<>();
    int start = nameToken != null ? nameToken.start() : peek().start();
    int end = nameToken != null ? nameToken.end() : 0;
    if (peek().type() == LEFT_BRACE) {
      next();
      end = parseLabelMatchers(matchers);
    }
    String name = nameToken != null ? nameToken.text() : "";
    if (!name.isEmpty()) {
      matchers.add(Matcher.equal(NAME_LABEL, name));
    }
    return VectorSelector.of(name, matchers, new PositionRange(start, end));
  }

  /** The matchers after an opening brace; returns where the closing brace ends. */
  private int parseLabelMatchers(List<Matcher> matchers) {
    if (peek().type() == RIGHT_BRACE) {
      return next().end();
    }
    while (true) {
      matchers.add(parseLabelMatcher());
      Token t = peek();
      if (t.type() == COMMA) {
        next();
        if (peek().type() == RIGHT_BRACE) {
          return next().end();
        }
      } else if (t.type() == RIGHT_BRACE) {
        return next().end();
      } else {
        throw unexpected(t, ErrorContext.MATCHER_NEXT);
      }
    }
  }

  /** {@code name op "value"}, {@code "quoted name" op "value"} or a quoted metric name alone. */
  private Matcher parseLabelMatcher() {
    Token t = peek();
    if (t.type() == TokenType.IDENTIFIER) {
      next();
      Token op = peek();
      if (matchType(op.type()) == null) {
        throw unexpected(op, ErrorContext.MATCHER_OPERATOR);
      }
      next();
      return newLabelMatcher(t.text(), t, op, expect(STRING, ErrorContext.MATCHER_VALUE));
    }
    if (t.type() == STRING) {
      next();
      String name = GoText.unquote(t.text());
      Token op = peek();
      if (matchType(op.type()) == null) {
        return Matcher.equal(NAME_LABEL, name);
      }
      next();
      return newLabelMatcher(name, t, op, expect(STRING, ErrorContext.MATCHER_VALUE));
    }
    throw unexpected(t, ErrorContext.MATCHER_START);
  }

  private Matcher newLabelMatcher(String name, Token nameToken, Token op, Token value) {
    try {
      return Matcher.of(matchType(op.type()), name, GoText.unquote(value.text()));
    } catch (IllegalArgumentException e) {
      throw fail(new PositionRange(nameToken.start(), value.end()), e.getMessage());
    }
  }

  private static Matcher.Type matchType(TokenType type) {
    return switch (type) {
      case EQL -> Matcher.Type.EQUAL;
      case NEQ -> Matcher.Type.NOT_EQUAL;
      case EQL_REGEX -> Matcher.Type.REGEX;
      case NEQ_REGEX -> Matcher.Type.NOT_REGEX;
      default -> null;
    };
  }

  // ---- offset and @

  /**
   * The offset takes one literal, signed literal, {@code step()}, {@code range()}, {@code
   * min_of}/{@code max_of} call or signed parenthesis ({@code foo offset -2 ^ 2} is {@code (foo
   * offset -2) ^ 2}); only an unsigned parenthesis (or a double sign) goes on into arithmetic.
   */
  private Expr parseOffset(Expr target) {
    DurationTerm offset = parseOffsetDuration();
    if (offset instanceof NumberLiteral number) {
      return addOffset(target, GoDuration.ofSeconds(number.value()), null);
    }
    return addOffset(target, Duration.ZERO, (DurationExpr) offset);
  }

  private DurationTerm parseOffsetDuration() {
    ErrorContext context = ErrorContext.OFFSET;
    Token t = peek();
    switch (t.type()) {
      case NUMBER, DURATION -> {
        next();
        NumberLiteral number = numberLiteral(t);
        peek();
        return checkDurationRange(number, number.position());
      }
      case ADD, SUB -> {
        next();
        return parseSignedOffset(t, context);
      }
      case STEP, RANGE -> {
        next();
        return durationFunction(t, expectEmptyParens(context));
      }
      case MAX_OF, MIN_OF -> {
        next();
        return parseMinMaxOf(t, context);
      }
      case LEFT_PAREN -> {
        return parseDurationExpr(0, context);
      }
      default -> throw unexpected(t, context);
    }
  }

  private DurationTerm parseSignedOffset(Token sign, ErrorContext context) {
    Token t = peek();
    switch (t.type()) {
      case NUMBER, DURATION -> {
        next();
        NumberLiteral number = numberLiteral(t).signed(unaryOp(sign), sign.start());
        peek();
        return checkDurationRange(number, sign.position());
      }
      case STEP, RANGE -> {
        next();
        DurationExpr function = durationFunction(t, expectEmptyParens(context));
        return DurationExpr.signed(durationSign(sign), sign.start(), function);
      }
      case MAX_OF, MIN_OF -> {
        next();
        DurationExpr function = parseMinMaxOf(t, context);
        return DurationExpr.signed(durationSign(sign), sign.start(), function);
      }
      case LEFT_PAREN -> {
        next();
        DurationTerm inner = parseDurationExpr(0, context);
        expect(RIGHT_PAREN, context);
        return applySign(sign, inner, true);
      }
      default -> {
        // A second sign: the general duration arithmetic takes over.
        DurationTerm operand = parseDurationExpr(POW_PRECEDENCE, context);
        return continueDuration(applySign(sign, operand, false), 0, context);
      }
    }
  }

  /** The experimental {@code anchored}/{@code smoothed} modifier on a selector. */
  private Expr setExtended(Expr target, boolean anchored) {
    String modifier = anchored ? "anchored" : "smoothed";
    if (!options.extendedRangeSelectors()) {
      throw fail(target.position(), modifier + " modifier is experimental and not enabled");
    }
    VectorSelector vs =
        switch (target) {
          case VectorSelector v -> v;
          case MatrixSelector m -> m.selector();
          case SubqueryExpr sq ->
              throw fail(sq.position(), modifier + " modifier is not supported for subqueries");
          default -> throw fail(target.position(), modifier + " modifier not implemented");
        };
    if (anchored ? vs.smoothed() : vs.anchored()) {
      throw fail(target.position(), "anchored and smoothed modifiers cannot be used together");
    }
    VectorSelector marked = vs.withExtended(anchored || vs.anchored(), !anchored || vs.smoothed());
    return target instanceof MatrixSelector m ? m.withSelector(marked, m.position().end()) : marked;
  }

  private Expr addOffset(Expr target, Duration offset, DurationExpr offsetExpr) {
    String twice = "offset may not be set multiple times";
    return switch (target) {
      case VectorSelector vs -> {
        if (vs.hasOffset()) {
          throw fail(vs.position(), twice);
        }
        yield vs.withOffset(offset, offsetExpr, lastEnd);
      }
      case MatrixSelector ms -> {
        VectorSelector vs = ms.selector();
        if (vs.hasOffset()) {
          throw fail(ms.position(), twice);
        }
        yield ms.withSelector(vs.withOffset(offset, offsetExpr, vs.position().end()), lastEnd);
      }
      case SubqueryExpr sq -> {
        if (sq.hasOffset()) {
          throw fail(sq.position(), twice);
        }
        yield sq.withOffset(offset, offsetExpr, lastEnd);
      }
      default ->
          throw fail(
              target.position(),
              "offset modifier must be preceded by an instant vector selector or range vector"
                  + " selector or a subquery");
    };
  }

  private Expr parseAt(Expr target) {
    Token t = peek();
    switch (t.type()) {
      case NUMBER, DURATION -> {
        next();
        return setTimestamp(target, numberLiteral(t).value());
      }
      case ADD, SUB -> {
        next();
        Token number = peek();
        if (number.type() != TokenType.NUMBER && number.type() != TokenType.DURATION) {
          throw unexpected(number, ErrorContext.AT);
        }
        next();
        return setTimestamp(target, numberLiteral(number).signed(unaryOp(t), t.start()).value());
      }
      case START, END -> {
        next();
        expect(LEFT_PAREN, ErrorContext.AT);
        expect(RIGHT_PAREN, ErrorContext.AT);
        return setAt(target, null, t.type() == TokenType.START ? AtAnchor.START : AtAnchor.END);
      }
      default -> throw unexpected(t, ErrorContext.AT);
    }
  }

  private Expr setTimestamp(Expr target, double seconds) {
    if (Double.isInfinite(seconds)
        || Double.isNaN(seconds)
        || seconds >= 0x1p63
        || seconds <= -0x1p63) {
      throw fail(
          target.position(),
          "timestamp out of bounds for @ modifier: " + GoNumbers.formatFixed(seconds, 6));
    }
    return setAt(target, GoNumbers.toInt64(GoNumbers.round(seconds * 1000)), null);
  }

  private Expr setAt(Expr target, Long timestamp, AtAnchor anchor) {
    String twice = "@ <timestamp> may not be set multiple times";
    return switch (target) {
      case VectorSelector vs -> {
        if (vs.hasAt()) {
          throw fail(vs.position(), twice);
        }
        yield vs.withAt(timestamp, anchor, lastEnd);
      }
      case MatrixSelector ms -> {
        VectorSelector vs = ms.selector();
        if (vs.hasAt()) {
          throw fail(ms.position(), twice);
        }
        yield ms.withSelector(vs.withAt(timestamp, anchor, vs.position().end()), lastEnd);
      }
      case SubqueryExpr sq -> {
        if (sq.hasAt()) {
          throw fail(sq.position(), twice);
        }
        yield sq.withAt(timestamp, anchor, lastEnd);
      }
      default ->
          throw fail(
              target.position(),
              "@ modifier must be preceded by an instant vector selector or range vector selector"
                  + " or a subquery");
    };
  }

  // ---- ranges and subqueries

  private Expr parseRangeOrSubquery(Expr target, Token open) {
    DurationTerm range = parsePositiveDuration(ErrorContext.RANGE);
    Token t = peek();
    if (t.type() == RIGHT_BRACKET) {
      next();
      return newMatrixSelector(target, range, open, t);
    }
    if (t.type() != TokenType.COLON) {
      throw unexpected(t, ErrorContext.AFTER_RANGE);
    }
    next();
    DurationTerm step = null;
    if (peek().type() != RIGHT_BRACKET) {
      step = parsePositiveDuration(ErrorContext.SUBQUERY_STEP);
    }
    Token close = expect(RIGHT_BRACKET, ErrorContext.AFTER_STEP);
    return new SubqueryExpr(
        target,
        fixedDuration(range),
        range instanceof DurationExpr d ? d : null,
        step == null ? Duration.ZERO : fixedDuration(step),
        step instanceof DurationExpr d ? d : null,
        Duration.ZERO,
        null,
        null,
        null,
        new PositionRange(target.position().start(), close.end()));
  }

  private MatrixSelector newMatrixSelector(
      Expr target, DurationTerm range, Token open, Token close) {
    PositionRange brackets = new PositionRange(open.start(), close.end());
    if (!(target instanceof VectorSelector vs)) {
      throw fail(brackets, "ranges only allowed for vector selectors");
    }
    // As in Prometheus, only a literal offset and a numeric @ are caught here.
    if (!vs.originalOffset().isZero()) {
      throw fail(brackets, "no offset modifiers allowed before range");
    }
    if (vs.timestamp() != null) {
      throw fail(brackets, "no @ modifiers allowed before range");
    }
    return new MatrixSelector(
        vs,
        fixedDuration(range),
        range instanceof DurationExpr d ? d : null,
        new PositionRange(vs.position().start(), close.end()));
  }

  private static Duration fixedDuration(DurationTerm term) {
    return term instanceof NumberLiteral number
        ? GoDuration.ofSeconds(number.value())
        : Duration.ZERO;
  }

  private DurationTerm parsePositiveDuration(ErrorContext context) {
    DurationTerm duration = parseDurationExpr(0, context);
    if (duration instanceof NumberLiteral number && number.value() <= 0) {
      throw fail(number.position(), "duration must be greater than 0");
    }
    return duration;
  }

  // ---- duration arithmetic

  private DurationTerm parseDurationExpr(int minPrecedence, ErrorContext context) {
    return continueDuration(parseDurationUnary(context), minPrecedence, context);
  }

  private DurationTerm continueDuration(
      DurationTerm first, int minPrecedence, ErrorContext context) {
    enter();
    DurationTerm lhs = first;
    while (true) {
      Token t = peek();
      DurationOp op = durationOp(t.type());
      if (op == null || durationPrecedence(op) < minPrecedence) {
        break;
      }
      next();
      int precedence = durationPrecedence(op);
      DurationTerm rhs =
          parseDurationExpr(op == DurationOp.POW ? precedence : precedence + 1, context);
      lhs = newDurationBinary(op, t, lhs, rhs);
    }
    leave();
    return lhs;
  }

  private DurationTerm parseDurationUnary(ErrorContext context) {
    Token t = peek();
    if (t.type() == ADD || t.type() == SUB) {
      next();
      return applySign(t, parseDurationExpr(POW_PRECEDENCE, context), false);
    }
    return parseDurationPrimary(context);
  }

  private DurationTerm parseDurationPrimary(ErrorContext context) {
    Token t = peek();
    switch (t.type()) {
      case NUMBER, DURATION -> {
        next();
        NumberLiteral number = numberLiteral(t);
        return checkDurationRange(number, number.position());
      }
      case STEP, RANGE -> {
        next();
        return durationFunction(t, expectEmptyParens(context));
      }
      case MAX_OF, MIN_OF -> {
        next();
        return parseMinMaxOf(t, context);
      }
      case LEFT_PAREN -> {
        next();
        DurationTerm inner = parseDurationExpr(0, context);
        expect(RIGHT_PAREN, context);
        return inner instanceof DurationExpr expr ? expr.wrap() : inner;
      }
      default -> throw unexpected(t, context);
    }
  }

  private Token expectEmptyParens(ErrorContext context) {
    expect(LEFT_PAREN, context);
    return expect(RIGHT_PAREN, context);
  }

  private static DurationExpr durationFunction(Token name, Token close) {
    DurationOp op = name.type() == TokenType.STEP ? DurationOp.STEP : DurationOp.RANGE;
    return DurationExpr.function(op, new PositionRange(name.start(), close.end()));
  }

  private DurationExpr parseMinMaxOf(Token name, ErrorContext context) {
    expect(LEFT_PAREN, context);
    DurationTerm first = parseDurationExpr(0, context);
    expect(COMMA, context);
    DurationTerm second = parseDurationExpr(0, context);
    expect(RIGHT_PAREN, context);
    DurationOp op = name.type() == TokenType.MAX_OF ? DurationOp.MAX_OF : DurationOp.MIN_OF;
    return DurationExpr.binary(op, first, second);
  }

  /** A sign on a duration: folded into a literal, else a negation node ({@code +} vanishes). */
  private DurationTerm applySign(Token sign, DurationTerm operand, boolean wrapped) {
    if (operand instanceof DurationExpr expr) {
      DurationExpr inner = wrapped ? expr.wrap() : expr;
      return sign.type() == SUB ? DurationExpr.signed(DurationOp.SUB, sign.start(), inner) : inner;
    }
    NumberLiteral number = ((NumberLiteral) operand).signed(unaryOp(sign), sign.start());
    return checkDurationRange(number, sign.position());
  }

  private DurationTerm newDurationBinary(
      DurationOp op, Token opToken, DurationTerm lhs, DurationTerm rhs) {
    if (rhs instanceof NumberLiteral number && number.value() == 0) {
      if (op == DurationOp.DIV) {
        throw fail(opToken.position(), "division by zero");
      }
      if (op == DurationOp.MOD) {
        throw fail(opToken.position(), "modulo by zero");
      }
    }
    return DurationExpr.binary(op, lhs, rhs);
  }

  /** Durations must fit Go's time.Duration (nanoseconds in 64 bits). */
  private NumberLiteral checkDurationRange(NumberLiteral number, PositionRange errorPosition) {
    double limit = 0x1p63 / 1e9;
    if (number.value() > limit || number.value() < -limit) {
      throw fail(errorPosition, "duration out of range");
    }
    return number;
  }

  private static DurationOp durationOp(TokenType type) {
    return switch (type) {
      case ADD -> DurationOp.ADD;
      case SUB -> DurationOp.SUB;
      case MUL -> DurationOp.MUL;
      case DIV -> DurationOp.DIV;
      case MOD -> DurationOp.MOD;
      case POW -> DurationOp.POW;
      default -> null;
    };
  }

  private static int durationPrecedence(DurationOp op) {
    return switch (op) {
      case ADD, SUB -> 4;
      case POW -> POW_PRECEDENCE;
      default -> 5;
    };
  }

  private static DurationOp durationSign(Token sign) {
    return sign.type() == SUB ? DurationOp.SUB : DurationOp.ADD;
  }

  private static UnaryOp unaryOp(Token sign) {
    return sign.type() == SUB ? UnaryOp.MINUS : UnaryOp.PLUS;
  }
}
