package io.flightdeck.exposition;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.MetricType;
import java.io.IOException;
import java.util.OptionalLong;

/**
 * Writes Prometheus text format 0.0.4 to an {@link Appendable}. Names that are not legacy
 * identifiers are written in the quoted form {@code {"my.metric","label.x"="v"}}. Types the format
 * lacks are written as the nearest one it has (info and stateset as gauge, gauge histogram as
 * histogram), as Prometheus's client libraries do. Not thread-safe.
 */
public final class TextFormatWriter {
  private final Appendable out;

  public TextFormatWriter(Appendable out) {
    this.out = out;
  }

  /** Writes the HELP (when not empty) and TYPE lines that open a family. */
  public void family(String name, MetricMetadata metadata) throws IOException {
    if (!metadata.help().isEmpty()) {
      out.append("# HELP ");
      appendMetricName(name);
      out.append(' ');
      appendEscaped(metadata.help(), false);
      out.append('\n');
    }
    out.append("# TYPE ");
    appendMetricName(name);
    out.append(' ').append(typeWord(metadata.type())).append('\n');
  }

  /** Writes one sample; {@code labels} must carry {@code __name__}. */
  public void sample(Labels labels, double value, OptionalLong timestampMs) throws IOException {
    sample(labels.metricName(), labels, value, timestampMs);
  }

  /**
   * Writes one sample of metric {@code name}; a {@code __name__} in {@code labels} is ignored, so
   * callers holding the name apart need not build a label set with it.
   */
  public void sample(String name, Labels labels, double value, OptionalLong timestampMs)
      throws IOException {
    series(name, labels);
    out.append(' ').append(formatValue(value));
    if (timestampMs.isPresent()) {
      out.append(' ').append(Long.toString(timestampMs.getAsLong()));
    }
    out.append('\n');
  }

  /**
   * Writes what precedes the value of a sample of metric {@code name}: the name and the label set,
   * {@code __name__} in {@code labels} ignored. For writers that keep this text to reuse it.
   */
  public void series(String name, Labels labels) throws IOException {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("sample without a metric name: " + labels);
    }
    boolean quotedName = !isLegacyName(name, true);
    if (quotedName) {
      out.append('{');
      appendQuoted(name);
    } else {
      out.append(name);
    }
    boolean open = quotedName;
    for (int i = 0; i < labels.size(); i++) {
      String label = labels.name(i);
      if (label.equals(Labels.METRIC_NAME)) {
        continue;
      }
      out.append(open ? ',' : '{');
      open = true;
      if (isLegacyName(label, false)) {
        out.append(label);
      } else {
        appendQuoted(label);
      }
      out.append('=');
      appendQuoted(labels.value(i));
    }
    if (open) {
      out.append('}');
    }
  }

  /** Go's shortest round-trip form where it matters to readers: NaN, +Inf, -Inf, 1, 0.5, 1e+21. */
  public static String formatValue(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "+Inf" : "-Inf";
    }
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return (value == 0 && 1 / value < 0) ? "-0" : Long.toString((long) value);
    }
    return Double.toString(value).replace('E', 'e');
  }

  private static String typeWord(MetricType type) {
    return switch (type) {
      case COUNTER -> "counter";
      case GAUGE, INFO, STATESET -> "gauge";
      case HISTOGRAM, GAUGEHISTOGRAM -> "histogram";
      case SUMMARY -> "summary";
      case UNKNOWN -> "untyped";
    };
  }

  private void appendMetricName(String name) throws IOException {
    if (isLegacyName(name, true)) {
      out.append(name);
    } else {
      appendQuoted(name);
    }
  }

  private void appendQuoted(String text) throws IOException {
    out.append('"');
    appendEscaped(text, true);
    out.append('"');
  }

  /** Appends runs without escapes whole: most names and values have none. */
  private void appendEscaped(String text, boolean quote) throws IOException {
    int run = 0;
    for (int i = 0; i < text.length(); i++) {
      String escaped =
          switch (text.charAt(i)) {
            case '\\' -> "\\\\";
            case '\n' -> "\\n";
            case '"' -> quote ? "\\\"" : null;
            default -> null;
          };
      if (escaped != null) {
        out.append(text, run, i).append(escaped);
        run = i + 1;
      }
    }
    out.append(text, run, text.length());
  }

  static boolean isLegacyName(String name, boolean colons) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char ch = name.charAt(i);
      boolean ok =
          (ch >= 'a' && ch <= 'z')
              || (ch >= 'A' && ch <= 'Z')
              || ch == '_'
              || (colons && ch == ':')
              || (i > 0 && ch >= '0' && ch <= '9');
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
