package io.flightdeck.tensorboard;

import java.util.List;

/**
 * A string tensor of the {@code text} plugin, elements flattened in row-major order and decoded as
 * UTF-8 (invalid bytes become U+FFFD). PyTorch writes one element under a tag ending in {@code
 * /text_summary}; the tag is kept as written.
 */
public record TextPoint(String tag, long step, double wallTimeSeconds, List<String> values)
    implements SummaryPoint {
  public TextPoint {
    values = List.copyOf(values);
  }
}
