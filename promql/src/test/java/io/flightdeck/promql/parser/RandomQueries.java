package io.flightdeck.promql.parser;

import io.flightdeck.testkit.Choices;
import io.flightdeck.testkit.Gen;
import java.util.List;

/**
 * Writes random valid queries of a requested type, with irregular spacing and spelling (keyword
 * case, quote styles, trailing commas, modifier positions), to check printing on more than the
 * queries people happened to write. Every decision is a choice of testkit's property runner, the
 * first option the simplest, so that a failing query shrinks to a short one.
 */
final class RandomQueries {
  private static final List<String> METRICS =
      List.of("foo", "http_requests_total", "job:rate5m", "sum", "offset", "by");
  private static final List<String> LABELS = List.of("job", "instance", "le", "a_b", "\"x.y\"");
  private static final List<String> VALUES = List.of("api", "", "a\\\"b", "é", "\\x41", "1.5");
  private static final List<String> ARITHMETIC = List.of("+", "-", "*", "/", "%", "^", "atan2");
  private static final List<String> COMPARISONS = List.of("==", "!=", ">", "<", ">=", "<=");
  private static final List<String> DURATIONS = List.of("5m", "1h30m", "30s", "1d", "90", "2w");

  private final Choices choices;

  private RandomQueries(Choices choices) {
    this.choices = choices;
  }

  /** Instant-vector queries nested up to {@code depth} deep. */
  static Gen<String> vectors(int depth) {
    return c -> new RandomQueries(c).vector(depth);
  }

  static Gen<String> scalars(int depth) {
    return c -> new RandomQueries(c).scalar(depth);
  }

  static Gen<String> matrices(int depth) {
    return c -> new RandomQueries(c).matrix(depth);
  }

  private String vector(int depth) {
    int choice = nextInt(depth <= 0 ? 2 : 10);
    return switch (choice) {
      case 0 -> selector();
      case 1 -> selector() + offsetOrAt();
      case 2 -> aggregate(depth);
      case 3 -> pick("rate", "increase", "delta", "avg_over_time") + "(" + matrix(depth - 1) + ")";
      case 4 -> pick("abs", "sort", "ceil", "timestamp") + "(" + vector(depth - 1) + ")";
      case 5 ->
          vector(depth - 1) + space() + pick(ARITHMETIC) + matching() + space() + vector(depth - 1);
      case 6 -> vector(depth - 1) + " " + pick("and", "or", "unless") + " " + vector(depth - 1);
      // Parenthesised: a scalar at its edge could otherwise group with a neighbouring operator.
      case 7 ->
          "("
              + vector(depth - 1)
              + space()
              + pick(COMPARISONS)
              + bool()
              + " "
              + scalar(depth - 1)
              + ")";
      case 8 -> "(" + vector(depth - 1) + ")";
      default -> pick("-", "+") + selector();
    };
  }

  private String scalar(int depth) {
    int choice = nextInt(depth <= 0 ? 2 : 7);
    return switch (choice) {
      // No infinity: it prints as +Inf, which before ^ reads back as a sign (see ParserCasesTest).
      case 0 -> pick("1", "0.5", "1e3", "0x1F", "NaN", "-2", "1_000", ".25");
      case 1 -> pick(DURATIONS);
      case 2 -> "scalar(" + vector(depth - 1) + ")";
      case 3 -> pick("time()", "pi()");
      case 4 -> scalar(depth - 1) + " " + pick(ARITHMETIC) + " " + scalar(depth - 1);
      case 5 -> scalar(depth - 1) + " " + pick(COMPARISONS) + " bool " + scalar(depth - 1);
      default -> "(" + scalar(depth - 1) + ")";
    };
  }

  private String matrix(int depth) {
    if (depth <= 0 || choices.nextBoolean()) {
      return selector() + "[" + pick(DURATIONS) + "]" + offsetOrAt();
    }
    String step = choices.nextBoolean() ? "" : pick(DURATIONS);
    // Modifiers and signs would bind to the subquery, so anything but a selector is parenthesised.
    String base = choices.nextBoolean() ? selector() : "(" + vector(depth - 1) + ")";
    return base + "[" + pick(DURATIONS) + ":" + step + "]" + offsetOrAt();
  }

  private String aggregate(int depth) {
    String op = pick("sum", "avg", "count", "max", "group", "topk", "quantile", "count_values");
    String keyword = choices.nextBoolean() ? op : op.toUpperCase(java.util.Locale.ROOT);
    String param =
        switch (op) {
          case "topk" -> "3, ";
          case "quantile" -> "0.9, ";
          case "count_values" -> "'value', ";
          default -> "";
        };
    String body = "(" + param + vector(depth - 1) + ")";
    String grouping = grouping();
    return choices.nextBoolean() ? keyword + grouping + body : keyword + body + grouping;
  }

  private String grouping() {
    return switch (nextInt(3)) {
      case 0 -> "";
      case 1 -> " by (" + labels() + ")";
      default -> " without(" + labels() + ")";
    };
  }

  private String labels() {
    int n = nextInt(3);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append(i > 0 ? ", " : "").append(pick(LABELS));
    }
    return n > 0 && choices.nextBoolean() ? sb + "," : sb.toString();
  }

  private String matching() {
    return switch (nextInt(4)) {
      case 0, 1 -> "";
      case 2 -> " on(" + labels() + ")";
      // group_right without "()" would take a parenthesised right operand for its label list.
      default -> " ignoring(job)" + (choices.nextBoolean() ? " group_left(le)" : " group_right()");
    };
  }

  private String bool() {
    return choices.nextBoolean() ? " bool" : "";
  }

  private String selector() {
    String name = nextInt(4) == 0 ? "" : pick(METRICS);
    int n = name.isEmpty() ? 1 + nextInt(2) : nextInt(3);
    StringBuilder sb = new StringBuilder(name);
    if (n > 0 || choices.nextBoolean()) {
      sb.append('{');
      for (int i = 0; i < n; i++) {
        String op = pick("=", "!=", "=~", "!~");
        // A selector without a name needs a matcher that rejects the empty value.
        String value = name.isEmpty() && i == 0 ? "api" : pick(VALUES);
        String quote = pick("\"", "'");
        value = quote.equals("'") ? value.replace("\\\"", "\"") : value;
        sb.append(i > 0 ? ", " : "")
            .append(name.isEmpty() && i == 0 ? "job=" : pick(LABELS) + op)
            .append(quote)
            .append(value)
            .append(quote);
      }
      sb.append('}');
    }
    return sb.toString();
  }

  private String offsetOrAt() {
    return switch (nextInt(5)) {
      case 0 -> " offset " + pick(DURATIONS);
      case 1 -> " offset -" + pick(DURATIONS);
      case 2 -> " @ " + pick("100", "1.5", "start()", "end()", "-60");
      case 3 -> " @ 10 offset 1m";
      default -> "";
    };
  }

  private String space() {
    return pick(" ", "  ", "\n", "\t");
  }

  /** A number in {@code [0, bound)}, shrinking towards 0. */
  private int nextInt(int bound) {
    return choices.intBetween(0, bound - 1);
  }

  private String pick(String... options) {
    return options[nextInt(options.length)];
  }

  private String pick(List<String> options) {
    return options.get(nextInt(options.size()));
  }
}
