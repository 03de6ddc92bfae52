package io.flightdeck.promql.parser;

/**
 * A token: its kind, its byte range in the query and its source text. For {@link TokenType#ERROR}
 * the text is the lexer's error message.
 */
record Token(TokenType type, int start, int end, String text) {

  PositionRange position() {
    return new PositionRange(start, end);
  }

  /** How error messages name this token, as Prometheus does ({@code identifier "foo"}). */
  String describe() {
    return switch (type.category()) {
      case VALUE -> type == TokenType.EOF ? type.description() : type.description() + " " + show();
      default -> show();
    };
  }

  private String show() {
    return switch (type.category()) {
      case KEYWORD -> "<" + text + ">";
      case OPERATOR -> "<op:" + text + ">";
      case AGGREGATOR -> "<aggr:" + text + ">";
      default -> {
        if (type == TokenType.IDENTIFIER || type == TokenType.METRIC_IDENTIFIER) {
          yield GoText.quote(text);
        }
        // Prometheus shortens long tokens to their first ten runes.
        yield end - start > 10 ? GoText.quotePrefix(text, 10) + "..." : GoText.quote(text);
      }
    };
  }
}
