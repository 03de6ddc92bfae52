package io.flightdeck.api;

import com.google.re2j.Pattern;
import io.flightdeck.model.Matcher;
import io.flightdeck.promql.PromQL;
import io.flightdeck.promql.parser.GoFormat;
import io.flightdeck.promql.parser.ParseException;
import io.flightdeck.promql.parser.VectorSelector;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Request parameters read and checked as Prometheus reads them ({@code web/api/v1}): the first
 * value wins, times are Unix seconds or RFC 3339, durations float seconds or {@code 5m}, and
 * failures carry Prometheus's messages. Parameters are checked with re2j, whose time is linear in
 * their length (java.util.regex backtracks quadratically on a long run of digits).
 */
final class Params {
  /** Prometheus's defaults for an absent {@code start} and {@code end}, in milliseconds. */
  static final long MIN_TIME = (Long.MIN_VALUE / 1000 + 62135596801L) * 1000;

  static final long MAX_TIME = (Long.MAX_VALUE / 1000 - 62135596801L) * 1000 + 999;

  /** What Go's {@code strconv.ParseFloat} accepts in decimal (hex and underscores left out). */
  private static final Pattern GO_FLOAT =
      Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

  private static final Pattern GO_INF_NAN = Pattern.compile("(?i)[+-]?(inf|infinity)|nan");
  private static final Pattern INFINITY_WORD = Pattern.compile("(?i)inf(inity)?");

  private static final Pattern PROMETHEUS_DURATION =
      Pattern.compile(
          "(?:(\\d+)y)?(?:(\\d+)w)?(?:(\\d+)d)?(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?(?:(\\d+)ms)?");

  private static final long[] DURATION_UNITS_MS = {
    365L * 24 * 3600_000, 7L * 24 * 3600_000, 24L * 3600_000, 3600_000, 60_000, 1000, 1
  };

  private static final Pattern GO_INT = Pattern.compile("[+-]?\\d+");

  private final ApiExchange exchange;

  Params(ApiExchange exchange) {
    this.exchange = exchange;
  }

  /** The first value, or the empty string: Go's {@code FormValue}. */
  String get(String name) {
    List<String> values = exchange.params(name);
    return values.isEmpty() ? "" : values.get(0);
  }

  /** Whether the request's client has gone away: see {@link ApiExchange#clientGone()}. */
  boolean clientGone() {
    return exchange.clientGone();
  }

  List<String> all(String name) {
    return exchange.params(name);
  }

  /** An optional time parameter, {@code fallback} when absent or empty. */
  long time(String name, long fallback) {
    String value = get(name);
    if (value.isEmpty()) {
      return fallback;
    }
    try {
      return parseTime(value);
    } catch (IllegalArgumentException e) {
      throw ApiException.invalidParam(
          name, "invalid time value for '" + name + "': " + e.getMessage());
    }
  }

  /** A required time parameter, as {@code query_range} reads {@code start} and {@code end}. */
  long requiredTime(String name) {
    try {
      return parseTime(get(name));
    } catch (IllegalArgumentException e) {
      throw ApiException.invalidParam(name, e.getMessage());
    }
  }

  /** A duration parameter in nanoseconds; 0 when absent. */
  long durationNanos(String name) {
    String value = get(name);
    if (value.isEmpty()) {
      return 0;
    }
    try {
      return parseDurationNanos(value);
    } catch (IllegalArgumentException e) {
      throw ApiException.invalidParam(name, e.getMessage());
    }
  }

  /** {@code limit}: 0 (no limit) when absent. */
  int limit() {
    String value = get("limit");
    if (value.isEmpty()) {
      return 0;
    }
    if (!GO_INT.matcher(value).matches()) {
      throw ApiException.invalidParam(
          "limit", "strconv.Atoi: parsing " + GoFormat.quote(value) + ": invalid syntax");
    }
    long limit;
    try {
      limit = Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw ApiException.invalidParam(
          "limit", "strconv.Atoi: parsing " + GoFormat.quote(value) + ": value out of range");
    }
    if (limit < 0) {
      throw ApiException.invalidParam("limit", "limit must be non-negative");
    }
    return (int) Math.min(limit, Integer.MAX_VALUE);
  }

  /**
   * The {@code match[]} selectors as matcher sets; each must have a matcher that rejects the empty
   * value, else it would select every series.
   *
   * @throws IllegalArgumentException with Prometheus's message
   */
  List<List<Matcher>> matcherSets() {
    List<List<Matcher>> sets = new ArrayList<>();
    for (String selector : all("match[]")) {
      sets.add(selector(selector));
    }
    for (List<Matcher> set : sets) {
      if (set.stream().allMatch(Matcher::matchesEmpty)) {
        throw new IllegalArgumentException("match[] must contain at least one non-empty matcher");
      }
    }
    return sets;
  }

  private static List<Matcher> selector(String text) {
    try {
      if (PromQL.parse(text) instanceof VectorSelector selector
          && selector.timestamp() == null
          && selector.atAnchor() == null
          && selector.originalOffset().isZero()
          && selector.originalOffsetExpr() == null) {
        return selector.matchers();
      }
    } catch (ParseException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    throw new IllegalArgumentException(
        "1:1: parse error: expected a series selector such as up{job=\"node\"}, got "
            + GoFormat.quote(text));
  }

  /**
   * Milliseconds since the epoch from Unix seconds (rounded to the millisecond) or RFC 3339.
   *
   * @throws IllegalArgumentException {@code cannot parse "x" to a valid timestamp}
   */
  static long parseTime(String text) {
    if (GO_FLOAT.matcher(text).matches()) {
      double seconds = Double.parseDouble(text);
      if (Double.isFinite(seconds)) {
        // Go: whole seconds, and the fraction rounded to milliseconds then converted to nanos.
        double whole = seconds < 0 ? Math.ceil(seconds) : Math.floor(seconds);
        double fraction = Math.round(Math.abs(seconds - whole) * 1000) / 1000.0;
        long nanos = (long) (Math.copySign(fraction, seconds) * 1e9);
        return (long) whole * 1000 + Math.floorDiv(nanos, 1_000_000L);
      }
    } else {
      try {
        return OffsetDateTime.parse(text).toInstant().toEpochMilli();
      } catch (DateTimeParseException | ArithmeticException e) {
        // falls through to the error below
      }
    }
    throw new IllegalArgumentException(
        "cannot parse " + GoFormat.quote(text) + " to a valid timestamp");
  }

  /**
   * Nanoseconds from float seconds or a Prometheus duration ({@code 1h30m}).
   *
   * @throws IllegalArgumentException {@code cannot parse "x" to a valid duration}
   */
  static long parseDurationNanos(String text) {
    if (GO_FLOAT.matcher(text).matches() || GO_INF_NAN.matcher(text).matches()) {
      double nanos = Double.parseDouble(INFINITY_WORD.matcher(text).replaceAll("Infinity")) * 1e9;
      if (nanos > Long.MAX_VALUE || nanos < Long.MIN_VALUE) {
        throw new IllegalArgumentException(
            "cannot parse " + GoFormat.quote(text) + " to a valid duration. It overflows int64");
      }
      return (long) nanos; // NaN becomes 0, which the callers refuse as a step
    }
    com.google.re2j.Matcher units = PROMETHEUS_DURATION.matcher(text);
    if (!text.isEmpty() && units.matches()) {
      try {
        long ms = 0;
        for (int i = 0; i < DURATION_UNITS_MS.length; i++) {
          String count = units.group(i + 1);
          if (count != null) {
            ms = Math.addExact(ms, Math.multiplyExact(Long.parseLong(count), DURATION_UNITS_MS[i]));
          }
        }
        return Math.multiplyExact(ms, 1_000_000L);
      } catch (ArithmeticException | NumberFormatException e) {
        // falls through to the error below
      }
    }
    throw new IllegalArgumentException(
        "cannot parse " + GoFormat.quote(text) + " to a valid duration");
  }
}
