package io.flightdeck.bench;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * One series of a synthetic scrape target: its line up to the value, rendered once, and a value
 * kept as a scaled integer ({@code units / 10^decimals}) so rendering a body is byte copies and
 * digit writes, cheap enough that the target server hardly competes with the scrapers.
 */
final class TargetSeries {
  /** How the value moves from one interval to the next. */
  enum Motion {
    /** Random within {@code center ± spread}. */
    GAUGE,
    /** Grows by a random step in {@code [0, spread]}. */
    COUNTER,
    /** Never changes. */
    CONSTANT,
    /** Set by its owner (a histogram's buckets, count and sum). */
    SET
  }

  private final byte[] prefix;
  private final int decimals;
  private final Motion motion;
  private final long center;
  private final long spread;
  long units;

  /**
   * @param header {@code # HELP} and {@code # TYPE} lines written before the series, or ""
   * @param series the series as written, {@code name{label="value",...}}
   */
  TargetSeries(String header, String series, int decimals, Motion motion, long start, long spread) {
    this.prefix = (header + series + " ").getBytes(StandardCharsets.UTF_8);
    this.decimals = decimals;
    this.motion = motion;
    this.center = start;
    this.spread = spread;
    this.units = start;
  }

  void advance(SplittableRandom random) {
    switch (motion) {
      case GAUGE -> units = Math.max(0, center - spread + random.nextLong(2 * spread + 1));
      case COUNTER -> units += random.nextLong(spread + 1);
      case CONSTANT, SET -> {}
    }
  }

  void render(ByteArrayOutputStream out, byte[] digits) {
    out.write(prefix, 0, prefix.length);
    long whole = units;
    int length = 0;
    // Digits from the last one backwards, the decimal point after {@code decimals} of them.
    do {
      if (length == decimals && decimals > 0) {
        digits[digits.length - ++length] = '.';
      }
      digits[digits.length - ++length] = (byte) ('0' + whole % 10);
      whole /= 10;
    } while (whole > 0 || length <= decimals);
    out.write(digits, digits.length - length, length);
    out.write('\n');
  }
}
