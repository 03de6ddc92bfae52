package io.flightdeck.model;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Prometheus's byte sizes: a number with B, KB, MB, GB, TB, PB or EB, in powers of 1024. */
public final class ByteSizeFormat {
  private static final Pattern SIZE = Pattern.compile("(\\d+)(B|KB|MB|GB|TB|PB|EB)");

  private ByteSizeFormat() {}

  public static long parse(String text) {
    Matcher m = SIZE.matcher(text == null ? "" : text.trim().toUpperCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "not a valid byte size: \"" + text + "\" (use e.g. 512MB, 10GB)");
    }
    int shift =
        switch (m.group(2)) {
          case "B" -> 0;
          case "KB" -> 10;
          case "MB" -> 20;
          case "GB" -> 30;
          case "TB" -> 40;
          case "PB" -> 50;
          default -> 60;
        };
    long n;
    try {
      n = Long.parseLong(m.group(1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("byte size too large: \"" + text + "\"");
    }
    if (shift > 0 && n > (Long.MAX_VALUE >> shift)) {
      throw new IllegalArgumentException("byte size too large: \"" + text + "\"");
    }
    return n << shift;
  }
}
