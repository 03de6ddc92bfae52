package io.flightdeck.promql.engine;

import io.flightdeck.model.Labels;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code limit_ratio}'s choice: a series is kept when its label hash, scaled to [0, 1], falls below
 * the ratio (or, for a negative ratio, at or above {@code 1 + ratio}), so {@code r} and {@code r -
 * 1} choose complementary sets and the choice is stable across steps.
 */
final class RatioSampler {
  private static final double MAX_UINT64 = 0x1p64;

  private RatioSampler() {}

  static boolean keep(double ratio, Labels labels) {
    double offset = unsignedToDouble(labelsHash(labels)) / MAX_UINT64;
    return (ratio >= 0 && offset < ratio) || (ratio < 0 && offset >= 1.0 + ratio);
  }

  /** Prometheus's {@code labels.Hash()}: XXH64 of every name and value, each followed by 0xff. */
  static long labelsHash(Labels labels) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < labels.size(); i++) {
      bytes.writeBytes(labels.name(i).getBytes(StandardCharsets.UTF_8));
      bytes.write(0xff);
      bytes.writeBytes(labels.value(i).getBytes(StandardCharsets.UTF_8));
      bytes.write(0xff);
    }
    return XxHash64.hash(bytes.toByteArray());
  }

  private static double unsignedToDouble(long v) {
    if (v >= 0) {
      return v;
    }
    // Halve with the low bit kept for rounding, convert, double: Go's uint64-to-float64.
    return ((double) ((v >>> 1) | (v & 1))) * 2.0;
  }
}
