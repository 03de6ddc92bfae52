package io.flightdeck.exposition;

import io.flightdeck.model.MetricType;
import java.util.Arrays;

/**
 * The metadata lines ({@code # HELP}, {@code # TYPE}, {@code # UNIT}) of one target's last body, so
 * that a scrape parses only the lines that changed: a target writes the same ones every time. The
 * k-th metadata line of a body is compared, byte for byte, with the k-th of the body before; equal
 * bytes parse to the same family and text, so those are taken from here. Give each target a cache
 * of its own through {@link SampleStream#create(ExpositionFormat, byte[], ParseOptions,
 * MetadataCache)}; not thread-safe, one parse at a time.
 */
public final class MetadataCache {
  /** What one metadata line declared: {@code text} for HELP and UNIT, {@code type} for TYPE. */
  record Line(
      byte[] bytes,
      OpenMetricsValidator.MetadataKind kind,
      String name,
      String text,
      MetricType type) {}

  private Line[] lines = new Line[16];
  private int count;
  private int next;

  /** Starts a body: its first metadata line is compared with the last body's first. */
  void begin() {
    next = 0;
  }

  /** The line at this place of the last body if its bytes equal {@code body[start, end)}. */
  Line find(byte[] body, int start, int end) {
    if (next >= count) {
      return null;
    }
    Line line = lines[next];
    return Arrays.equals(line.bytes(), 0, line.bytes().length, body, start, end) ? line : null;
  }

  /** Records what the line at this place declared and moves to the next place. */
  void remember(Line line) {
    if (next == lines.length) {
      lines = Arrays.copyOf(lines, 2 * lines.length);
    }
    lines[next++] = line;
    count = Math.max(count, next);
  }

  /**
   * Records a line parsed afresh, keeping a copy of its bytes.
   *
   * @param text the HELP or UNIT text; for TYPE the type's word as written
   */
  Line parsed(
      byte[] body,
      int start,
      int end,
      OpenMetricsValidator.MetadataKind kind,
      String name,
      String text,
      MetricType type) {
    Line line = new Line(Arrays.copyOfRange(body, start, end), kind, name, text, type);
    remember(line);
    return line;
  }
}
