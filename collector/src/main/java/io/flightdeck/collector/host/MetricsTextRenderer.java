package io.flightdeck.collector.host;

import io.flightdeck.exposition.TextFormatWriter;
import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders families as a {@code /metrics} body in text format 0.0.4 as {@link TextFormatWriter}
 * writes it, families sorted by name and series by labels (node_exporter's order), collection after
 * collection, for a process that serves the same series every time (the node agent, every second).
 * The HELP and TYPE lines, the order of a family's series and the text of each series up to its
 * value are kept from the previous rendering and reused while the family comes back with equal
 * label sets in the same order, so a rendering mostly formats values. Not thread-safe.
 */
public final class MetricsTextRenderer {
  private Map<String, FamilyText> cached = new HashMap<>();
  private byte[] buffer = new byte[1 << 16];
  private int length;

  /** The text format body of {@code families}, UTF-8 encoded. */
  public byte[] render(List<MetricFamily> families) {
    List<MetricFamily> sorted = new ArrayList<>(families);
    sorted.sort(Comparator.comparing(MetricFamily::name));
    // Only the families of this rendering are kept: a series that went away is not held forever.
    Map<String, FamilyText> kept = new HashMap<>();
    length = 0;
    for (MetricFamily family : sorted) {
      FamilyText text = cached.get(family.name());
      if (text == null || !text.matches(family)) {
        text = FamilyText.of(family);
      }
      kept.put(family.name(), text);
      append(text.header);
      List<MetricFamily.Sample> samples = family.samples();
      for (int index : text.order) {
        append(text.series[index]);
        appendValue(samples.get(index).value());
      }
    }
    cached = kept;
    return Arrays.copyOf(buffer, length);
  }

  /** The value and the line's end; integers, nearly every value served, without a String. */
  private void appendValue(double value) {
    if (value == Math.rint(value) && Math.abs(value) < 1e15 && !isNegativeZero(value)) {
      ensure(20);
      long n = (long) value;
      if (n < 0) {
        buffer[length++] = '-';
        n = -n;
      }
      int digits = 1;
      for (long rest = n / 10; rest != 0; rest /= 10) {
        digits++;
      }
      for (int i = length + digits - 1; i >= length; i--) {
        buffer[i] = (byte) ('0' + n % 10);
        n /= 10;
      }
      length += digits;
    } else {
      append(TextFormatWriter.formatValue(value).getBytes(StandardCharsets.US_ASCII));
    }
    ensure(1);
    buffer[length++] = '\n';
  }

  private static boolean isNegativeZero(double value) {
    return value == 0 && 1 / value < 0;
  }

  private void append(byte[] bytes) {
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buffer, length, bytes.length);
    length += bytes.length;
  }

  private void ensure(int more) {
    if (length + more > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + more));
    }
  }

  /**
   * One family's reusable text: the HELP and TYPE lines, each series' text up to and including the
   * space before its value (in the order samples were added), and that order sorted by labels.
   */
  private record FamilyText(
      MetricMetadata metadata, Labels[] labels, byte[] header, byte[][] series, int[] order) {

    static FamilyText of(MetricFamily family) {
      List<MetricFamily.Sample> samples = family.samples();
      int n = samples.size();
      Labels[] labels = new Labels[n];
      byte[][] series = new byte[n][];
      StringBuilder text = new StringBuilder();
      TextFormatWriter writer = new TextFormatWriter(text);
      try {
        writer.family(family.name(), family.metadata());
        byte[] header = bytes(text);
        for (int i = 0; i < n; i++) {
          labels[i] = samples.get(i).labels();
          text.setLength(0);
          writer.series(family.name(), labels[i]);
          series[i] = bytes(text.append(' '));
        }
        // A stable sort, as MetricsText's: equal label sets keep the order they were added in.
        Integer[] order = new Integer[n];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, Comparator.comparing(i -> labels[i]));
        return new FamilyText(
            family.metadata(),
            labels,
            header,
            series,
            Arrays.stream(order).mapToInt(Integer::intValue).toArray());
      } catch (IOException e) {
        throw new IllegalStateException("a StringBuilder does not fail", e);
      }
    }

    /** Whether {@code family} has this metadata and these label sets in this order. */
    boolean matches(MetricFamily family) {
      List<MetricFamily.Sample> samples = family.samples();
      if (samples.size() != labels.length || !metadata.equals(family.metadata())) {
        return false;
      }
      for (int i = 0; i < labels.length; i++) {
        if (!labels[i].equals(samples.get(i).labels())) {
          return false;
        }
      }
      return true;
    }

    private static byte[] bytes(CharSequence text) {
      return text.toString().getBytes(StandardCharsets.UTF_8);
    }
  }
}
