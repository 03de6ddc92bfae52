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
    BigDecimal total = BigDecimal.ZERO;
    int position = 0;
    while (position < trimmed.length() && m.find(position) && m.start() == position) {
      String unit = m.group(2).toUpperCase(Locale.ROOT);
      int shift = unit.equals("B") ? 0 : 10 * (PREFIXES.indexOf(unit.charAt(0)) + 1);
      total = total.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(2).pow(shift)));
      position = m.end();
    }
    if (trimmed.isEmpty() || position != trimmed.length()) {
      throw new IllegalArgumentException(
          "not a valid byte size: \"" + text + "\" (use e.g. 512MB, 10GiB)");
    }
    if (total.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      throw new IllegalArgumentException("byte size too large: \"" + text + "\"");
    }
    return total.longValue();
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
