package io.flightdeck.model;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Prometheus's byte sizes ({@code units.Base2Bytes}): numbers with B, KB or KiB, MB or MiB, up to
 * EB or EiB, all in powers of 1024, optionally fractional ({@code 1.5GB}) or compound ({@code
 * 1KiB512B}).
 */
public final class ByteSizeFormat {
  private static final Pattern PART =
      Pattern.compile("(\\d+(?:\\.\\d+)?)([KMGTPE]I?B|B)", Pattern.CASE_INSENSITIVE);
  private static final String PREFIXES = "KMGTPE";
  private static final String[] FORMAT_UNITS = {"EiB", "PiB", "TiB", "GiB", "MiB", "KiB"};

  private ByteSizeFormat() {}

  public static long parse(String text) {
    String trimmed = text == null ? "" : text.trim();
    Matcher m = PART.matcher(trimmed);
    long whole = 0;
    BigDecimal fractional = null;
    int position = 0;
    try {
      while (position < trimmed.length() && m.find(position) && m.start() == position) {
        String unit = m.group(2).toUpperCase(Locale.ROOT);
        int shift = unit.equals("B") ? 0 : 10 * (PREFIXES.indexOf(unit.charAt(0)) + 1);
        String number = m.group(1);
        if (number.indexOf('.') < 0) {
          // Whole numbers, nearly every size, in longs: BigDecimal's class initialisation alone
          // took a hundredth of a second of each import's start.
          whole = Math.addExact(whole, multiplyByPowerOfTwo(Long.parseLong(number), shift));
        } else {
          BigDecimal part = new BigDecimal(number).multiply(BigDecimal.valueOf(2).pow(shift));
          fractional = fractional == null ? part : fractional.add(part);
        }
        position = m.end();
      }
    } catch (ArithmeticException | NumberFormatException e) {
      throw tooLarge(text);
    }
    if (trimmed.isEmpty() || position != trimmed.length()) {
      throw new IllegalArgumentException(
          "not a valid byte size: \"" + text + "\" (use e.g. 512MB, 10GiB)");
    }
    if (fractional == null) {
      return whole;
    }
    BigDecimal total = fractional.add(BigDecimal.valueOf(whole));
    if (total.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      throw tooLarge(text);
    }
    return total.longValue();
  }

  /** {@code value * 2^shift}; throws ArithmeticException past a long. */
  private static long multiplyByPowerOfTwo(long value, int shift) {
    if (shift >= Long.SIZE - 1 ? value != 0 : value > Long.MAX_VALUE >> shift) {
      throw new ArithmeticException("overflow");
    }
    return value << shift;
  }

  private static IllegalArgumentException tooLarge(String text) {
    return new IllegalArgumentException("byte size too large: \"" + text + "\"");
  }

  /** As Prometheus prints a size: biggest binary unit first, {@code 10MiB}, {@code 1KiB512B}. */
  public static String format(long bytes) {
    StringBuilder out = new StringBuilder();
    long rest = bytes;
    for (int i = 0; i < FORMAT_UNITS.length; i++) {
      long unit = 1L << (10 * (FORMAT_UNITS.length - i));
      if (rest >= unit) {
        out.append(rest / unit).append(FORMAT_UNITS[i]);
        rest %= unit;
      }
    }
    if (rest > 0 || out.isEmpty()) {
      out.append(rest).append('B');
    }
    return out.toString();
  }
}
