package io.flightdeck.promql.parser;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The kinds of tokens. Their categories decide how an unexpected token is described in an error
 * message, exactly as Prometheus describes it ({@code <op:+>}, {@code <aggr:sum>}, {@code <by>},
 * {@code "("}, {@code identifier "foo"}).
 */
enum TokenType {
  EOF(Category.VALUE, "end of input"),
  ERROR(Category.VALUE, "error"),
  COMMENT(Category.VALUE, "comment"),
  IDENTIFIER(Category.VALUE, "identifier"),
  METRIC_IDENTIFIER(Category.VALUE, "metric identifier"),
  STRING(Category.VALUE, "string"),
  NUMBER(Category.VALUE, "number"),
  DURATION(Category.VALUE, "duration"),

  LEFT_PAREN(Category.PUNCTUATION, "("),
  RIGHT_PAREN(Category.PUNCTUATION, ")"),
  LEFT_BRACE(Category.PUNCTUATION, "{"),
  RIGHT_BRACE(Category.PUNCTUATION, "}"),
  LEFT_BRACKET(Category.PUNCTUATION, "["),
  RIGHT_BRACKET(Category.PUNCTUATION, "]"),
  COMMA(Category.PUNCTUATION, ","),
  EQL(Category.PUNCTUATION, "="),
  COLON(Category.PUNCTUATION, ":"),

  ADD(Category.OPERATOR, "+"),
  SUB(Category.OPERATOR, "-"),
  MUL(Category.OPERATOR, "*"),
  DIV(Category.OPERATOR, "/"),
  MOD(Category.OPERATOR, "%"),
  POW(Category.OPERATOR, "^"),
  EQLC(Category.OPERATOR, "=="),
  NEQ(Category.OPERATOR, "!="),
  LTE(Category.OPERATOR, "<="),
  LSS(Category.OPERATOR, "<"),
  GTE(Category.OPERATOR, ">="),
  GTR(Category.OPERATOR, ">"),
  TRIM_UPPER(Category.OPERATOR, "</"),
  TRIM_LOWER(Category.OPERATOR, ">/"),
  EQL_REGEX(Category.OPERATOR, "=~"),
  NEQ_REGEX(Category.OPERATOR, "!~"),
  AT(Category.OPERATOR, "@"),
  LAND(Category.OPERATOR, "and"),
  LOR(Category.OPERATOR, "or"),
  LUNLESS(Category.OPERATOR, "unless"),
  ATAN2(Category.OPERATOR, "atan2"),

  SUM(Category.AGGREGATOR, "sum"),
  AVG(Category.AGGREGATOR, "avg"),
  COUNT(Category.AGGREGATOR, "count"),
  MIN(Category.AGGREGATOR, "min"),
  MAX(Category.AGGREGATOR, "max"),
  GROUP(Category.AGGREGATOR, "group"),
  STDDEV(Category.AGGREGATOR, "stddev"),
  STDVAR(Category.AGGREGATOR, "stdvar"),
  TOPK(Category.AGGREGATOR, "topk"),
  BOTTOMK(Category.AGGREGATOR, "bottomk"),
  COUNT_VALUES(Category.AGGREGATOR, "count_values"),
  QUANTILE(Category.AGGREGATOR, "quantile"),
  LIMITK(Category.AGGREGATOR, "limitk"),
  LIMIT_RATIO(Category.AGGREGATOR, "limit_ratio"),

  BOOL(Category.KEYWORD, "bool"),
  BY(Category.KEYWORD, "by"),
  GROUP_LEFT(Category.KEYWORD, "group_left"),
  GROUP_RIGHT(Category.KEYWORD, "group_right"),
  FILL(Category.KEYWORD, "fill"),
  FILL_LEFT(Category.KEYWORD, "fill_left"),
  FILL_RIGHT(Category.KEYWORD, "fill_right"),
  IGNORING(Category.KEYWORD, "ignoring"),
  OFFSET(Category.KEYWORD, "offset"),
  SMOOTHED(Category.KEYWORD, "smoothed"),
  ANCHORED(Category.KEYWORD, "anchored"),
  ON(Category.KEYWORD, "on"),
  WITHOUT(Category.KEYWORD, "without"),

  START(Category.PREPROCESSOR, "start"),
  END(Category.PREPROCESSOR, "end"),
  STEP(Category.PREPROCESSOR, "step"),
  RANGE(Category.PREPROCESSOR, "range"),
  MAX_OF(Category.PREPROCESSOR, "max_of"),
  MIN_OF(Category.PREPROCESSOR, "min_of");

  enum Category {
    /** Tokens whose text varies; described by kind and text ({@code number "1"}). */
    VALUE,
    PUNCTUATION,
    OPERATOR,
    AGGREGATOR,
    KEYWORD,
    /** {@code start}, {@code end}, {@code step}, ...: words that precede {@code ()}. */
    PREPROCESSOR
  }

  private static final Map<String, TokenType> WORDS = new HashMap<>();

  static {
    for (TokenType type : values()) {
      switch (type.category) {
        case OPERATOR, AGGREGATOR, KEYWORD, PREPROCESSOR -> {
          if (Character.isLetter(type.text.charAt(0))) {
            WORDS.put(type.text, type);
          }
        }
        default -> {}
      }
    }
    // Inf and NaN are numbers wherever a word may stand.
    WORDS.put("inf", NUMBER);
    WORDS.put("nan", NUMBER);
  }

  private final Category category;

  /** Fixed text for most kinds; for {@link Category#VALUE} the kind's description. */
  private final String text;

  TokenType(Category category, String text) {
    this.category = category;
    this.text = text;
  }

  Category category() {
    return category;
  }

  /** What a VALUE token is called in messages ("identifier", "end of input"). */
  String description() {
    return text;
  }

  /** The keyword, operator or number a word stands for, matched case-insensitively; or null. */
  static TokenType ofWord(String word) {
    return WORDS.get(word.toLowerCase(Locale.ROOT));
  }
}
