package io.flightdeck.promql.parser;

/**
 * Where in the grammar a syntax error happened and what was expected there; together they phrase
 * the message as Prometheus does: "unexpected X in WHERE, expected EXPECTED". Prometheus attaches
 * such context only in some places; elsewhere the message is just "unexpected X".
 */
record ErrorContext(String where, String expected) {
  static final ErrorContext TOP = new ErrorContext(null, null);
  static final ErrorContext AGGREGATION = new ErrorContext("aggregation", null);
  static final ErrorContext OFFSET =
      new ErrorContext("offset", "number, duration, step(), or range()");
  static final ErrorContext AT = new ErrorContext("@", "timestamp");
  static final ErrorContext RANGE =
      new ErrorContext("subquery or range selector", "number, duration, step(), or range()");
  static final ErrorContext AFTER_RANGE = new ErrorContext("subquery or range", "\":\" or \"]\"");
  static final ErrorContext SUBQUERY_STEP =
      new ErrorContext("subquery selector", "number, duration, step(), range(), or \"]\"");
  static final ErrorContext AFTER_STEP = new ErrorContext("subquery selector", "\"]\"");
  static final ErrorContext GROUPING_OPEN = new ErrorContext("grouping opts", "\"(\"");
  static final ErrorContext GROUPING_LABEL = new ErrorContext("grouping opts", "label");
  static final ErrorContext GROUPING_NEXT = new ErrorContext("grouping opts", "\",\" or \")\"");
  static final ErrorContext MATCHER_START =
      new ErrorContext("label matching", "identifier or \"}\"");
  static final ErrorContext MATCHER_OPERATOR =
      new ErrorContext("label matching", "label matching operator");
  static final ErrorContext MATCHER_VALUE = new ErrorContext("label matching", "string");
  static final ErrorContext MATCHER_NEXT = new ErrorContext("label matching", "\",\" or \"}\"");

  String describe(Token unexpected) {
    StringBuilder sb = new StringBuilder("unexpected ").append(unexpected.describe());
    if (where != null) {
      sb.append(" in ").append(where);
    }
    if (expected != null) {
      sb.append(", expected ").append(expected);
    }
    return sb.toString();
  }
}
