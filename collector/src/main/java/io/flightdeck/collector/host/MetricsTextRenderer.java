package io.flightdeck.collector.host;

import io.flightdeck.exposition.TextFormatWriter;
import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
 * label sets in the same order, so a rendering mostly formats values. The order of the families is
 * kept too while they come back under the same names in the same order: sorting them and looking
 * each up by name was a quarter of a rendering in a profile of the agent. Not thread-safe.
 */
public final class MetricsTextRenderer {
  /** The family names of the previous rendering, in the order they were passed. */
  private String[] names = new String[0];

  /** The positions in {@link #names} sorted by name. */
  private int[] order = new int[0];

  /** The reusable text of the family at each position of {@link #names}. */
  private FamilyText[] texts = new FamilyText[0];

  private byte[] buffer = new byte[1 << 16];
  private int length;

  /** The text format body of {@code families}, UTF-8 encoded. */
  public byte[] render(List<MetricFamily> families) {
    if (!sameNames(families)) {
      layOut(families);
    }
    length = 0;
    for (int position : order) {
      MetricFamily family = families.get(position);
      FamilyText text = texts[position];
      if (text == null || !text.matches(family)) {
        text = FamilyText.of(family);
        texts[position] = text;
      }
      append(text.header);
      List<MetricFamily.Sample> samples = family.samples();
      for (int index : text.order) {
        append(text.series[index]);
        appendValue(samples.get(index).value());
      }
    }
    return Arrays.copyOf(buffer, length);
  }

  /** Whether {@code families} come under the previous rendering's names, in the same order. */
  private boolean sameNames(List<MetricFamily> families) {
    if (families.size() != names.length) {
      return false;
    }
    for (int i = 0; i < names.length; i++) {
      if (!names[i].equals(families.get(i).name())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Sorts the positions of {@code families} by name and carries each family's text over from the
   * previous rendering by name. Only the families of this rendering are kept: a series that went
   * away is not held forever.
   */
  private void layOut(List<MetricFamily> families) {
    Map<String, FamilyText> previous = new HashMap<>();
    for (int i = 0; i < names.length; i++) {
      if (texts[i] != null) {
        previous.put(names[i], texts[i]);
      }
    }
    int n = families.size();
    String[] newNames = new String[n];
    FamilyText[] newTexts = new FamilyText[n];
    for (int i = 0; i < n; i++) {
      newNames[i] = families.get(i).name();
      newTexts[i] = previous.get(newNames[i]);
    }
    // A stable sort: families passed twice under one name keep the order they came in.
    Integer[] sorted = new Integer[n];
    Arrays.setAll(sorted, i -> i);
    Arrays.sort(sorted, Comparator.comparing(i -> newNames[i]));
    names = newNames;
    texts = newTexts;
    order = Arrays.stream(sorted).mapToInt(Integer::intValue).toArray();
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
      if (samples.size() != labels.length || !sameMetadata(family.metadata())) {
        return false;
      }
      for (int i = 0; i < labels.length; i++) {
        if (!labels[i].equals(samples.get(i).labels())) {
          return false;
        }
      }
      return true;
    }

    /**
     * Field by field: a record's generated equals goes through method handles, which under C1 (the
     * agent's only compiler) cost more than the comparisons; the strings are mostly the same
     * instances.
     */
    private boolean sameMetadata(MetricMetadata other) {
      return metadata == other
          || (metadata.type() == other.type()
              && metadata.help().equals(other.help())
              && metadata.unit().equals(other.unit()));
    }

    private static byte[] bytes(CharSequence text) {
      return text.toString().getBytes(StandardCharsets.UTF_8);
    }
  }
}
