package io.flightdeck.promql.parser;

/**
 * Splits a query into tokens. A state machine over the query's UTF-8 bytes that follows
 * Prometheus's lexer state for state, because what it accepts and the errors it reports (inside
 * braces, inside brackets, after a duration) are part of the language: for example {@code foo[5m
 * x]} is a lexing error "unexpected character: 'x', expected ':'".
 */
final class Lexer {
  private static final int EOF = -1;
  private static final String DIGITS = "0123456789";
  private static final String HEX_DIGITS = "0123456789abcdefABCDEF";

  private enum State {
    STATEMENTS,
    INSIDE_BRACES,
    SPACE,
    LINE_COMMENT,
    STRING,
    ESCAPE,
    RAW_STRING,
    NUMBER_OR_DURATION,
    KEYWORD_OR_IDENTIFIER,
    IDENTIFIER,
    DURATION_EXPR,
    /** After the end of input or an error: only EOF tokens follow. */
    DONE
  }

  private final byte[] input;
  private State state = State.STATEMENTS;
  private int pos;
  private int start;
  private int width;
  private Token item;

  private int parenDepth;
  private boolean braceOpen;
  private boolean bracketOpen;
  private boolean gotColon;
  private boolean gotDuration;
  private int stringOpen;

  Lexer(byte[] input) {
    this.input = input;
  }

  /** The next token, comments included; an ERROR token carries the message. */
  Token next() {
    item = null;
    if (state == State.DONE) {
      emit(TokenType.EOF);
    }
    while (item == null) {
      state = step(state);
    }
    return item;
  }

  private State step(State current) {
    return switch (current) {
      case STATEMENTS -> lexStatements();
      case INSIDE_BRACES -> lexInsideBraces();
      case SPACE -> lexSpace();
      case LINE_COMMENT -> lexLineComment();
      case STRING -> lexString();
      case ESCAPE -> lexEscape();
      case RAW_STRING -> lexRawString();
      case NUMBER_OR_DURATION -> lexNumberOrDuration();
      case KEYWORD_OR_IDENTIFIER -> lexKeywordOrIdentifier();
      case IDENTIFIER -> lexIdentifier();
      case DURATION_EXPR -> lexDurationExpr();
      case DONE -> throw new IllegalStateException("lexer already finished");
    };
  }

  // ---- reading runes

  private int nextRune() {
    if (pos >= input.length) {
      width = 0;
      return EOF;
    }
    int w = Utf8.validWidth(input, pos, input.length);
    int r;
    if (w == 0) {
      r = Utf8.RUNE_ERROR;
      w = 1;
    } else {
      r = Utf8.rune(input, pos, w);
    }
    width = w;
    pos += w;
    return r;
  }

  private int peek() {
    int r = nextRune();
    backup();
    return r;
  }

  private void backup() {
    pos -= width;
  }

  private boolean accept(String valid) {
    if (contains(valid, nextRune())) {
      return true;
    }
    backup();
    return false;
  }

  private boolean is(String valid) {
    return contains(valid, peek());
  }

  private void acceptRun(String valid) {
    while (contains(valid, nextRune())) {
      // consume
    }
    backup();
  }

  private static boolean contains(String valid, int r) {
    return r >= 0 && valid.indexOf(r) >= 0;
  }

  private boolean startsWithComment() {
    return pos < input.length && input[pos] == '#';
  }

  // ---- producing tokens

  private void emit(TokenType type) {
    item = new Token(type, start, pos, Utf8.decode(input, start, pos));
    start = pos;
  }

  private void ignore() {
    start = pos;
  }

  /** Reports a lexing error; the error spans from the current token's start to the end. */
  private State error(String message) {
    item = new Token(TokenType.ERROR, start, input.length, message);
    return State.DONE;
  }

  private String text() {
    return Utf8.decode(input, start, pos);
  }

  // ---- states

  private State lexStatements() {
    if (braceOpen) {
      return State.INSIDE_BRACES;
    }
    if (startsWithComment()) {
      return State.LINE_COMMENT;
    }
    int r = nextRune();
    switch (r) {
      case EOF -> {
        if (parenDepth != 0) {
          return error("unclosed left parenthesis");
        }
        if (bracketOpen) {
          return error("unclosed left bracket");
        }
        emit(TokenType.EOF);
        return State.DONE;
      }
      case ',' -> emit(TokenType.COMMA);
      case '*' -> emit(TokenType.MUL);
      case '/' -> emit(TokenType.DIV);
      case '%' -> emit(TokenType.MOD);
      case '+' -> emit(TokenType.ADD);
      case '-' -> emit(TokenType.SUB);
      case '^' -> emit(TokenType.POW);
      case '=' -> {
        int t = peek();
        if (t == '=') {
          nextRune();
          emit(TokenType.EQLC);
        } else if (t == '~') {
          return error("unexpected character after '=': " + GoText.quoteRune(t));
        } else {
          emit(TokenType.EQL);
        }
      }
      case '!' -> {
        int t = nextRune();
        if (t != '=') {
          return error("unexpected character after '!': " + GoText.quoteRune(t));
        }
        emit(TokenType.NEQ);
      }
      case '<' -> lexComparison(TokenType.LTE, TokenType.TRIM_UPPER, TokenType.LSS);
      case '>' -> lexComparison(TokenType.GTE, TokenType.TRIM_LOWER, TokenType.GTR);
      case '"', '\'' -> {
        stringOpen = r;
        return State.STRING;
      }
      case '`' -> {
        stringOpen = r;
        return State.RAW_STRING;
      }
      case '(' -> {
        emit(TokenType.LEFT_PAREN);
        parenDepth++;
      }
      case ')' -> {
        emit(TokenType.RIGHT_PAREN);
        parenDepth--;
        if (parenDepth < 0) {
          return error("unexpected right parenthesis " + GoText.quoteRune(r));
        }
      }
      case '{' -> {
        emit(TokenType.LEFT_BRACE);
        braceOpen = true;
        return State.INSIDE_BRACES;
      }
      case '[' -> {
        if (bracketOpen) {
          return error("unexpected left bracket " + GoText.quoteRune(r));
        }
        gotColon = false;
        emit(TokenType.LEFT_BRACKET);
        if (isSpace(peek())) {
          skipSpaces();
        }
        bracketOpen = true;
        return State.DURATION_EXPR;
      }
      case ']' -> {
        if (!bracketOpen) {
          return error("unexpected right bracket " + GoText.quoteRune(r));
        }
        emit(TokenType.RIGHT_BRACKET);
        bracketOpen = false;
      }
      case '@' -> emit(TokenType.AT);
      default -> {
        return lexOther(r);
      }
    }
    return State.STATEMENTS;
  }

  private void lexComparison(TokenType orEqual, TokenType trim, TokenType plain) {
    int t = peek();
    if (t == '=') {
      nextRune();
      emit(orEqual);
    } else if (t == '/') {
      nextRune();
      emit(trim);
    } else {
      emit(plain);
    }
  }

  /** Spaces, numbers, words and colons at statement level. */
  private State lexOther(int r) {
    if (isSpace(r)) {
      return State.SPACE;
    }
    if (isDigit(r) || (r == '.' && isDigit(peek()))) {
      backup();
      return State.NUMBER_OR_DURATION;
    }
    if (isAlpha(r) || r == ':') {
      if (!bracketOpen) {
        backup();
        return State.KEYWORD_OR_IDENTIFIER;
      }
      // Inside brackets, after a duration: only the subquery colon or a duration function.
      if (r == ':') {
        if (gotColon) {
          return error("unexpected colon " + GoText.quoteRune(r));
        }
        emit(TokenType.COLON);
        gotColon = true;
        return State.STATEMENTS;
      }
      if (isDurationKeywordStart(r) && scanDurationKeyword()) {
        return State.STATEMENTS;
      }
      return error(
          "unexpected character: " + GoText.quoteRune(r) + ", expected " + GoText.quoteRune(':'));
    }
    return error("unexpected character: " + GoText.quoteRune(r));
  }

  private State lexInsideBraces() {
    if (startsWithComment()) {
      return State.LINE_COMMENT;
    }
    int r = nextRune();
    if (r == EOF) {
      return error("unexpected end of input inside braces");
    }
    if (isSpace(r)) {
      return State.SPACE;
    }
    if (isAlpha(r)) {
      backup();
      return State.IDENTIFIER;
    }
    switch (r) {
      case ',' -> emit(TokenType.COMMA);
      case '"', '\'' -> {
        stringOpen = r;
        return State.STRING;
      }
      case '`' -> {
        stringOpen = r;
        return State.RAW_STRING;
      }
      case '=' -> {
        if (nextRune() == '~') {
          emit(TokenType.EQL_REGEX);
        } else {
          backup();
          emit(TokenType.EQL);
        }
      }
      case '!' -> {
        int nr = nextRune();
        if (nr == '~') {
          emit(TokenType.NEQ_REGEX);
        } else if (nr == '=') {
          emit(TokenType.NEQ);
        } else {
          return error("unexpected character after '!' inside braces: " + GoText.quoteRune(nr));
        }
      }
      case '{' -> {
        return error("unexpected left brace " + GoText.quoteRune(r));
      }
      case '}' -> {
        emit(TokenType.RIGHT_BRACE);
        braceOpen = false;
        return State.STATEMENTS;
      }
      default -> {
        return error("unexpected character inside braces: " + GoText.quoteRune(r));
      }
    }
    return State.INSIDE_BRACES;
  }

  private State lexSpace() {
    while (isSpace(peek())) {
      nextRune();
    }
    ignore();
    return State.STATEMENTS;
  }

  private void skipSpaces() {
    while (isSpace(peek())) {
      nextRune();
    }
    ignore();
  }

  private State lexLineComment() {
    pos++; // the '#'
    int r = nextRune();
    while (r != '\r' && r != '\n' && r != EOF) {
      r = nextRune();
    }
    backup();
    emit(TokenType.COMMENT);
    return State.STATEMENTS;
  }

  private State lexString() {
    while (true) {
      int r = nextRune();
      if (r == '\\') {
        return State.ESCAPE;
      }
      if (r == Utf8.RUNE_ERROR) {
        return error("invalid UTF-8 rune");
      }
      if (r == EOF || r == '\n') {
        return error("unterminated quoted string");
      }
      if (r == stringOpen) {
        emit(TokenType.STRING);
        return State.STATEMENTS;
      }
    }
  }

  private State lexEscape() {
    int ch = nextRune();
    int digits;
    int base;
    int max;
    switch (ch) {
      case 'a', 'b', 'f', 'n', 'r', 't', 'v', '\\' -> {
        return State.STRING;
      }
      case '0', '1', '2', '3', '4', '5', '6', '7' -> {
        digits = 3;
        base = 8;
        max = 255;
      }
      case 'x' -> {
        ch = nextRune();
        digits = 2;
        base = 16;
        max = 255;
      }
      case 'u' -> {
        ch = nextRune();
        digits = 4;
        base = 16;
        max = Character.MAX_CODE_POINT;
      }
      case 'U' -> {
        ch = nextRune();
        digits = 8;
        base = 16;
        max = Character.MAX_CODE_POINT;
      }
      case EOF -> {
        return error("escape sequence not terminated");
      }
      default -> {
        if (ch == stringOpen) {
          return State.STRING;
        }
        return error("unknown escape sequence " + GoText.describeRune(ch));
      }
    }
    long value = 0;
    while (digits > 0) {
      int d = digitValue(ch);
      if (d >= base) {
        if (ch == EOF) {
          return error("escape sequence not terminated");
        }
        return error("illegal character " + GoText.describeRune(ch) + " in escape sequence");
      }
      value = value * base + d;
      digits--;
      if (digits > 0) {
        ch = nextRune();
      }
    }
    if (value > max || (value >= 0xD800 && value < 0xE000)) {
      return error("escape sequence is an invalid Unicode code point");
    }
    return State.STRING;
  }

  private static int digitValue(int ch) {
    if (ch >= '0' && ch <= '9') {
      return ch - '0';
    }
    if (ch >= 'a' && ch <= 'f') {
      return ch - 'a' + 10;
    }
    if (ch >= 'A' && ch <= 'F') {
      return ch - 'A' + 10;
    }
    return 16; // larger than any digit in any base used here
  }

  private State lexRawString() {
    while (true) {
      int r = nextRune();
      if (r == Utf8.RUNE_ERROR) {
        return error("invalid UTF-8 rune");
      }
      if (r == EOF) {
        return error("unterminated raw string");
      }
      if (r == stringOpen) {
        emit(TokenType.STRING);
        return State.STATEMENTS;
      }
    }
  }

  private State lexNumberOrDuration() {
    if (scanNumber()) {
      emit(TokenType.NUMBER);
      return State.STATEMENTS;
    }
    if (acceptRemainingDuration()) {
      backup();
      emit(TokenType.DURATION);
      return State.STATEMENTS;
    }
    return error("bad number or duration syntax: " + GoText.quote(text()));
  }

  /** Units after the number part of a duration; bad unit names are caught when parsing it. */
  private boolean acceptRemainingDuration() {
    if (!accept("smhdwy")) {
      return false;
    }
    accept("s"); // ms
    while (accept(DIGITS)) {
      while (accept(DIGITS)) {
        // consume
      }
      if (!accept("smhdw")) {
        return false;
      }
      accept("s");
    }
    return !isAlphaNumeric(nextRune());
  }

  /**
   * Scans decimal, hexadecimal and floating-point numbers with digit separators. What it accepts
   * need not be a valid number; the parser reports that.
   */
  private boolean scanNumber() {
    int initial = pos;
    String digits = DIGITS;
    if (accept("0") && accept("xX")) {
      accept("_"); // 0x_1F
      digits = HEX_DIGITS;
    }
    accept(".");
    accept(digits);
    boolean dotConsumed = false;
    boolean exponentConsumed = false;
    while (is(digits + "._eE")) {
      if (is(".") && dotConsumed) {
        accept(".");
        return false;
      }
      if (is("eE") && exponentConsumed) {
        accept("eE");
        return false;
      }
      if (accept(".")) {
        dotConsumed = true;
        if (accept("_.") || digits == HEX_DIGITS) {
          return false; // no fractional hexadecimal literals
        }
        continue;
      }
      if (accept("eE")) {
        exponentConsumed = true;
        accept("+-");
        if (accept("._eE") || peek() == EOF) {
          return false;
        }
        continue;
      }
      if (accept("_")) {
        if (accept("._eE") || peek() == EOF) {
          return false;
        }
        continue;
      }
      acceptRun(digits);
    }
    return pos != initial && !isAlphaNumeric(peek());
  }

  private State lexIdentifier() {
    while (isAlphaNumeric(nextRune())) {
      // absorb
    }
    backup();
    emit(TokenType.IDENTIFIER);
    return State.STATEMENTS;
  }

  private State lexKeywordOrIdentifier() {
    int r = nextRune();
    while (isAlphaNumeric(r) || r == ':') {
      r = nextRune();
    }
    backup();
    String word = text();
    TokenType keyword = TokenType.ofWord(word);
    if (keyword != null) {
      // fill modifiers are keywords only before "(", so that "fill" stays usable as a name.
      boolean fill =
          keyword == TokenType.FILL
              || keyword == TokenType.FILL_LEFT
              || keyword == TokenType.FILL_RIGHT;
      emit(fill && !followedByLeftParen() ? TokenType.IDENTIFIER : keyword);
    } else if (word.indexOf(':') < 0) {
      emit(TokenType.IDENTIFIER);
    } else {
      emit(TokenType.METRIC_IDENTIFIER);
    }
    return State.STATEMENTS;
  }

  private boolean followedByLeftParen() {
    for (int i = pos; i < input.length; i++) {
      if (!isSpace(input[i])) {
        return input[i] == '(';
      }
    }
    return false;
  }

  /** Inside brackets: numbers, durations, arithmetic and the duration functions. */
  private State lexDurationExpr() {
    int r = nextRune();
    switch (r) {
      case EOF -> {
        return error("unexpected end of input in duration expression");
      }
      case ']' -> {
        emit(TokenType.RIGHT_BRACKET);
        bracketOpen = false;
        gotColon = false;
        return State.STATEMENTS;
      }
      case ':' -> {
        emit(TokenType.COLON);
        if (!gotDuration) {
          return error("unexpected colon before duration in duration expression");
        }
        if (gotColon) {
          return error("unexpected repeated colon in duration expression");
        }
        gotColon = true;
      }
      case '(' -> {
        emit(TokenType.LEFT_PAREN);
        parenDepth++;
      }
      case ')' -> {
        emit(TokenType.RIGHT_PAREN);
        parenDepth--;
        if (parenDepth < 0) {
          return error("unexpected right parenthesis " + GoText.quoteRune(r));
        }
      }
      case '+' -> emit(TokenType.ADD);
      case '-' -> emit(TokenType.SUB);
      case '*' -> emit(TokenType.MUL);
      case '/' -> emit(TokenType.DIV);
      case '%' -> emit(TokenType.MOD);
      case '^' -> emit(TokenType.POW);
      case ',' -> emit(TokenType.COMMA);
      default -> {
        if (isSpace(r)) {
          skipSpaces();
        } else if (isDurationKeywordStart(r)) {
          if (!scanDurationKeyword()) {
            return error("unexpected character in duration expression: " + GoText.quoteRune(r));
          }
        } else if (isDigit(r) || (r == '.' && isDigit(peek()))) {
          backup();
          gotDuration = true;
          return State.NUMBER_OR_DURATION;
        } else {
          return error("unexpected character in duration expression: " + GoText.quoteRune(r));
        }
      }
    }
    return State.DURATION_EXPR;
  }

  private static boolean isDurationKeywordStart(int r) {
    int lower = Character.toLowerCase(r);
    return lower == 's' || lower == 'r' || lower == 'm';
  }

  /** Reads a word and emits it if it is step, range, max_of or min_of. */
  private boolean scanDurationKeyword() {
    while (isAlpha(nextRune())) {
      // absorb
    }
    backup();
    TokenType type = TokenType.ofWord(text());
    if (type == TokenType.STEP
        || type == TokenType.RANGE
        || type == TokenType.MAX_OF
        || type == TokenType.MIN_OF) {
      emit(type);
      return true;
    }
    return false;
  }

  private static boolean isSpace(int r) {
    return r == ' ' || r == '\t' || r == '\n' || r == '\r';
  }

  private static boolean isDigit(int r) {
    return r >= '0' && r <= '9';
  }

  private static boolean isAlpha(int r) {
    return r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z');
  }

  private static boolean isAlphaNumeric(int r) {
    return isAlpha(r) || isDigit(r);
  }
}
