package io.flightdeck.rules;

import io.flightdeck.model.GoQuote;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Go's fmt as rule templates and promtool output use it: {@code %v}, {@code %g}, {@code %e}, {@code
 * %f}, {@code %d}, {@code %s}, {@code %q}, {@code %x}, {@code %t} with flags, width and precision.
 * Floats are rounded from their exact binary value, half to even, like Go.
 */
final class GoFormat {
  private GoFormat() {}

  /** Go's {@code %v} of any template value. */
  static String value(Object v) {
    return switch (v) {
      case null -> "<no value>";
      case Double d -> g(d, -1);
      case Float f -> g(f, -1);
      case Map<?, ?> m -> {
        StringBuilder out = new StringBuilder("map[");
        String sep = "";
        for (Map.Entry<?, ?> e : new TreeMap<>(m).entrySet()) {
          out.append(sep).append(value(e.getKey())).append(':').append(value(e.getValue()));
          sep = " ";
        }
        yield out.append(']').toString();
      }
      case List<?> l -> {
        StringBuilder out = new StringBuilder("[");
        String sep = "";
        for (Object o : l) {
          out.append(sep).append(value(o));
          sep = " ";
        }
        yield out.append(']').toString();
      }
      default -> v.toString();
    };
  }

  /** {@code %g} with a precision, or the shortest form for {@code prec < 0}. */
  static String g(double v, int prec) {
    String special = special(v);
    if (special != null) {
      return special;
    }
    String sign = (v < 0 || (v == 0 && 1 / v < 0)) ? "-" : "";
    if (v == 0) {
      return sign + "0";
    }
    BigDecimal d = digits(Math.abs(v), prec == 0 ? 1 : prec);
    String digits = d.unscaledValue().toString();
    int nd = digits.length();
    int dp = nd - d.scale();
    int eprec = prec < 0 ? 6 : (prec == 0 ? 1 : prec);
    if (prec >= 0 && eprec > nd && nd >= dp) {
      eprec = nd;
    }
    int exp = dp - 1;
    if (exp < -4 || exp >= eprec) {
      return sign + eForm(digits, exp);
    }
    return sign + fForm(digits, dp);
  }

  /** {@code %e} with a precision, or the shortest form ({@code strconv 'e', -1}). */
  static String e(double v, int prec) {
    String special = special(v);
    if (special != null) {
      return special;
    }
    String sign = (v < 0 || (v == 0 && 1 / v < 0)) ? "-" : "";
    if (v == 0) {
      return sign + (prec <= 0 ? "0" : "0." + "0".repeat(prec)) + "e+00";
    }
    BigDecimal d = digits(Math.abs(v), prec < 0 ? -1 : prec + 1);
    String digits = d.unscaledValue().toString();
    int exp = digits.length() - d.scale() - 1;
    if (prec >= 0 && digits.length() < prec + 1) {
      digits = digits + "0".repeat(prec + 1 - digits.length());
    }
    return sign + eForm(digits, exp);
  }

  /** Go's encoding/json form of a finite float64: 0.000123, 60, 1e-7, 1e+21. */
  static String json(double v) {
    double abs = Math.abs(v);
    if (abs != 0 && (abs < 1e-6 || abs >= 1e21)) {
      return e(v, -1).replaceFirst("e([-+])0(\\d)$", "e$1$2");
    }
    String plain = new BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
    return v == 0 ? "0" : plain;
  }

  /** {@code %f} with a precision (6 when negative). */
  static String f(double v, int prec) {
    String special = special(v);
    if (special != null) {
      return special;
    }
    BigDecimal d = new BigDecimal(v).setScale(prec < 0 ? 6 : prec, RoundingMode.HALF_EVEN);
    String s = d.toPlainString();
    return (v == 0 && 1 / v < 0 && !s.startsWith("-")) ? "-" + s : s;
  }

  private static String special(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    return null;
  }

  /** The significant digits of a positive value, trailing zeros stripped. */
  private static BigDecimal digits(double v, int significant) {
    BigDecimal d =
        significant < 0
            ? new BigDecimal(Double.toString(v))
            : new BigDecimal(v).round(new MathContext(significant, RoundingMode.HALF_EVEN));
    d = d.stripTrailingZeros();
    return d;
  }

  private static String eForm(String digits, int exp) {
    StringBuilder out = new StringBuilder().append(digits.charAt(0));
    if (digits.length() > 1) {
      out.append('.').append(digits, 1, digits.length());
    }
    out.append('e').append(exp < 0 ? '-' : '+');
    int a = Math.abs(exp);
    if (a < 10) {
      out.append('0');
    }
    return out.append(a).toString();
  }

  private static String fForm(String digits, int dp) {
    if (dp <= 0) {
      return "0." + "0".repeat(-dp) + digits;
    }
    if (dp >= digits.length()) {
      return digits + "0".repeat(dp - digits.length());
    }
    return digits.substring(0, dp) + "." + digits.substring(dp);
  }

  /** Go's {@code fmt.Sprintf} for the verbs above; others print Go's {@code %!v(...)} form. */
  static String sprintf(String format, List<Object> args) {
    StringBuilder out = new StringBuilder();
    int arg = 0;
    int i = 0;
    while (i < format.length()) {
      char c = format.charAt(i++);
      if (c != '%') {
        out.append(c);
        continue;
      }
      if (i >= format.length()) {
        out.append("%!(NOVERB)");
        break;
      }
      boolean minus = false;
      boolean plus = false;
      boolean zero = false;
      boolean space = false;
      for (; i < format.length() && "-+0 #".indexOf(format.charAt(i)) >= 0; i++) {
        switch (format.charAt(i)) {
          case '-' -> minus = true;
          case '+' -> plus = true;
          case '0' -> zero = true;
          case ' ' -> space = true;
          default -> {}
        }
      }
      int width = -1;
      int start = i;
      while (i < format.length() && Character.isDigit(format.charAt(i))) {
        i++;
      }
      if (i > start) {
        width = Integer.parseInt(format.substring(start, i));
      }
      int prec = -1;
      if (i < format.length() && format.charAt(i) == '.') {
        start = ++i;
        while (i < format.length() && Character.isDigit(format.charAt(i))) {
          i++;
        }
        prec = i > start ? Integer.parseInt(format.substring(start, i)) : 0;
      }
      if (i >= format.length()) {
        out.append("%!(NOVERB)");
        break;
      }
      char verb = format.charAt(i++);
      if (verb == '%') {
        out.append('%');
        continue;
      }
      if (arg >= args.size()) {
        out.append("%!").append(verb).append("(MISSING)");
        continue;
      }
      String s = verb(verb, prec, args.get(arg++));
      if (plus && !s.startsWith("-") && !s.startsWith("+") && isNumber(args.get(arg - 1))) {
        s = "+" + s;
      } else if (space && !s.startsWith("-") && isNumber(args.get(arg - 1))) {
        s = " " + s;
      }
      out.append(pad(s, width, minus, zero && !minus && isNumber(args.get(arg - 1))));
    }
    if (arg < args.size()) {
      out.append("%!(EXTRA ");
      for (int k = arg; k < args.size(); k++) {
        out.append(k > arg ? ", " : "")
            .append(typeName(args.get(k)))
            .append('=')
            .append(value(args.get(k)));
      }
      out.append(')');
    }
    return out.toString();
  }

  private static String verb(char verb, int prec, Object a) {
    return switch (verb) {
      case 'v' -> a instanceof Double d && prec >= 0 ? g(d, prec) : value(a);
      case 's' -> {
        String s = a instanceof Double d ? "%!s(float64=" + g(d, -1) + ")" : value(a);
        yield prec >= 0 && !(a instanceof Double) && s.length() > prec ? s.substring(0, prec) : s;
      }
      case 'q' -> a instanceof String s ? GoQuote.quote(s) : bad(verb, a);
      case 'd' -> a instanceof Long l ? l.toString() : bad(verb, a);
      case 'x', 'X' -> {
        String s =
            switch (a) {
              case Long l -> Long.toHexString(l);
              case String str -> hex(str);
              default -> null;
            };
        yield s == null ? bad(verb, a) : verb == 'X' ? s.toUpperCase() : s;
      }
      case 't' -> a instanceof Boolean b ? b.toString() : bad(verb, a);
      case 'g', 'G', 'e', 'E', 'f', 'F' -> {
        Double d =
            switch (a) {
              case Double x -> x;
              case Long l -> null;
              default -> null;
            };
        if (d == null) {
          yield bad(verb, a);
        }
        String s =
            switch (Character.toLowerCase(verb)) {
              case 'g' -> g(d, prec);
              case 'e' -> e(d, prec < 0 ? 6 : prec);
              default -> f(d, prec);
            };
        yield Character.isUpperCase(verb) ? s.toUpperCase() : s;
      }
      default -> bad(verb, a);
    };
  }

  private static String hex(String s) {
    StringBuilder out = new StringBuilder();
    for (byte b : s.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
      out.append(String.format("%02x", b));
    }
    return out.toString();
  }

  private static String bad(char verb, Object a) {
    return "%!" + verb + "(" + typeName(a) + "=" + value(a) + ")";
  }

  private static boolean isNumber(Object a) {
    return a instanceof Double || a instanceof Long;
  }

  static String typeName(Object a) {
    return switch (a) {
      case null -> "<nil>";
      case Double d -> "float64";
      case Long l -> "int";
      case String s -> "string";
      case Boolean b -> "bool";
      case Map<?, ?> m -> "map[string]string";
      case List<?> l -> "[]interface {}";
      default -> a.getClass().getSimpleName();
    };
  }

  private static String pad(String s, int width, boolean left, boolean zeros) {
    if (width <= s.length()) {
      return s;
    }
    String fill = (zeros ? "0" : " ").repeat(width - s.length());
    if (left) {
      return s + fill;
    }
    if (zeros && (s.startsWith("-") || s.startsWith("+"))) {
      return s.charAt(0) + fill + s.substring(1);
    }
    return fill + s;
  }
}
